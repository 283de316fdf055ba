import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import AnalysisEngine
@testable import Imaging
@testable import MediaIO

/// A photo's face as a reference: decoded upright whatever its container (HEIC grids with irot
/// and EXIF orientation, AVIF, PNG, a phone's JPEG with its EXIF rotation), found, aligned and
/// embedded as `reference add` does.
final class PhotoReferenceTests: XCTestCase {
    /// The only face of `photo`, as a reference embeds it (as is and mirrored, averaged).
    private func reference(_ photo: String, _ models: FaceModels) throws -> (embedding: Embedding, box: Box) {
        let faces = models.faces(in: try Photo(path: photo).image, embed: false)
        let face = try XCTUnwrap(faces.first, "no face in \(photo)")
        return (models.referenceEmbedding(face.crop), face.face.box)
    }

    private func heif(_ name: String) -> String { Fixtures.path("heif/\(name)") }

    /// The must-show: a reference added from the iPhone-style HEIC (a grid, irot, Exif orientation)
    /// is the one added from the same picture as PNG.
    func testReferenceFromHEICMatchesTheSamePictureAsPNG() throws {
        let models = try FaceModels.load()
        let fromHEIC = try reference(heif("grid_irot.heic"), models)
        let fromPNG = try reference(heif("upright.png"), models)
        let fromPillow = try reference(heif("grid_irot.pillow.png"), models)
        let fromPlain = try reference(heif("plain_clap_irot_imir.heic"), models)
        let cosine = fromHEIC.embedding.cosine(fromPNG.embedding)
        let pillow = fromHEIC.embedding.cosine(fromPillow.embedding)
        let plain = fromPlain.embedding.cosine(fromPNG.embedding)
        print(
            "reference cosine: grid_irot.heic vs upright.png \(cosine), vs pillow-heif's decode \(pillow); plain_clap_irot_imir.heic vs upright.png \(plain)"
        )
        XCTAssertGreaterThanOrEqual(cosine, 0.999)
        XCTAssertGreaterThanOrEqual(pillow, 0.999)
        XCTAssertGreaterThanOrEqual(plain, 0.99, "a one-pixel narrower crop of the picture")
        XCTAssertGreaterThan(fromHEIC.box.intersectionOverUnion(fromPNG.box), 0.95)
    }

    /// AVIF's face (lossless AV1 over 4:2:0) is the PNG's.
    func testReferenceFromAVIFMatchesTheSamePictureAsPNG() throws {
        let models = try FaceModels.load()
        let cosine = try reference(heif("upright.avif"), models).embedding.cosine(try reference(heif("upright.png"), models).embedding)
        print("reference cosine: upright.avif vs upright.png \(cosine)")
        XCTAssertGreaterThanOrEqual(cosine, 0.999)
    }

    func testPhotoWithExifRotationIsDetectedUpright() throws {
        let upright = try Fixtures.image("yunet/obama.png")
        let models = try FaceModels.load()
        let want = models.faces(in: upright, embed: false)
        XCTAssertEqual(want.count, 1)
        // Store the pixels turned a quarter left, tagged EXIF orientation 6 ("turn right to view"),
        // as a phone held upright writes them.
        let folder = temporaryFolder(self).path
        let jpeg = try ImageEncoder.jpegData(Self.turnedLeft(upright), quality: 95)
        let path = MediaFixtures.write(
            MediaFixtures.inserting(MediaFixtures.exifSegment(orientation: 6, littleEndian: false), into: jpeg), folder, "phone.jpg")
        let decoded = try Photo(path: path).image
        XCTAssertEqual([decoded.width, decoded.height], [upright.width, upright.height])
        let got = models.faces(in: decoded, embed: true)
        XCTAssertEqual(got.count, 1)
        let face = got[0].face
        XCTAssertGreaterThan(face.box.intersectionOverUnion(want[0].face.box), 0.9)
        XCTAssertLessThan(face.landmarks[0].y, face.landmarks[2].y, "eyes above the nose")
        XCTAssertLessThan(face.landmarks[0].x, face.landmarks[1].x, "right eye on the image's left")
        XCTAssertGreaterThan(got[0].embedding!.cosine(models.pipeline.embeddings(of: [want[0].crop], cores: 1)[0]), 0.9)
    }

    /// The picture turned a quarter counter-clockwise.
    static func turnedLeft(_ im: RGBImage) -> RGBImage {
        var out = [UInt8](repeating: 0, count: im.pixels.count)
        for y in 0..<im.height {
            for x in 0..<im.width {
                let s = (y * im.width + x) * 3
                let d = ((im.width - 1 - x) * im.height + y) * 3
                out[d] = im.pixels[s]; out[d + 1] = im.pixels[s + 1]; out[d + 2] = im.pixels[s + 2]
            }
        }
        return RGBImage(width: im.height, height: im.width, pixels: out)
    }
}
