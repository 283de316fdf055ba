import Foundation
import XCTest
@testable import Imaging
@testable import MediaIO
@testable import Faces
@testable import Library
@testable import GlimtPure

/// What a user relies on when choosing references: upright detection of phone photos, never
/// guessing among several faces, and at most five references.
final class ReferencesTests: XCTestCase {
    func testPhotoWithExifRotationIsDetectedUpright() throws {
        let upright = try Fixtures.image("yunet/obama.png")
        let pipeline = try FacePipeline.shared()
        let want = pipeline.faces(in: upright, embed: false)
        XCTAssertEqual(want.count, 1)
        // Store the pixels turned a quarter left, tagged EXIF orientation 6 ("turn right to view"),
        // as a phone held upright writes them.
        let folder = MediaFixtures.temporaryFolder(self)
        let jpeg = try ImageEncoder.jpegData(Self.turnedLeft(upright), quality: 95)
        let path = MediaFixtures.write(MediaFixtures.inserting(MediaFixtures.exifSegment(orientation: 6, littleEndian: false), into: jpeg), folder, "phone.jpg")
        let decoded = try ImageDecoder.decode(path: path)
        XCTAssertEqual([decoded.width, decoded.height], [upright.width, upright.height])
        let got = pipeline.faces(in: decoded, embed: true)
        XCTAssertEqual(got.count, 1)
        let face = got[0].face
        XCTAssertGreaterThan(face.box.intersectionOverUnion(want[0].face.box), 0.9)
        XCTAssertLessThan(face.landmarks[0].y, face.landmarks[2].y, "eyes above the nose")
        XCTAssertLessThan(face.landmarks[0].x, face.landmarks[1].x, "right eye on the image's left")
        XCTAssertGreaterThan(got[0].embedding!.cosine(pipeline.recognizer.embed(want[0].crop)), 0.9)
    }

    func testSeveralFacesAreRefusedWithoutAFaceNumberAndASheetIsWritten() throws {
        let library = try temporaryDirectory(self)
        let store = ReferenceStore(library: library)
        let photo = Fixtures.url("yunet/two_people.png").path
        let pipeline = try FacePipeline.shared()
        do {
            try References.add(photo: photo, faceNumber: nil, library: store.library, detectionSize: 640)
            XCTFail("a photo with two faces must not be taken without --face")
        } catch let e as AmbiguousFaceError {
            XCTAssertEqual(e.faces.count, 2)
            XCTAssertTrue(FileManager.default.fileExists(atPath: e.sheet), "contact sheet at \(e.sheet)")
            XCTAssertEqual(try ImageDecoder.decode(path: e.sheet).width, 448)
        }
        XCTAssertEqual(try store.list().count, 0, "nothing guessed, nothing stored")
        let r = try References.add(photo: photo, faceNumber: 2, library: store.library, detectionSize: 640)
        XCTAssertEqual(r.face, 2)
        XCTAssertThrowsError(try References.add(photo: photo, faceNumber: 3, library: store.library, detectionSize: 640))
    }

    func testSixthReferenceIsRefusedAndRemoveFreesASlot() throws {
        let store = ReferenceStore(library: try temporaryDirectory(self))
        let pipeline = try FacePipeline.shared()
        let photos = ["obama.png", "obama2.png", "obama3.png", "obama4.png", "obama-1080p.png"]
        for p in photos { try References.add(photo: Fixtures.url("yunet/\(p)").path, faceNumber: nil, library: store.library, detectionSize: 640) }
        XCTAssertEqual(try store.list().map(\.id), [1, 2, 3, 4, 5])
        XCTAssertThrowsError(try References.add(photo: Fixtures.url("yunet/biden.png").path, faceNumber: nil, library: store.library, detectionSize: 640)) { error in
            XCTAssertTrue("\(error)".contains("already 5 references"), "\(error)")
        }
        XCTAssertEqual(try store.remove(id: 3).id, 3)
        XCTAssertThrowsError(try store.remove(id: 3))
        let added = try References.add(photo: Fixtures.url("yunet/biden.png").path, faceNumber: nil, library: store.library, detectionSize: 640)
        XCTAssertEqual(added.id, 6, "IDs are never reused")
        // A reference is the mirrored-and-averaged embedding of its face: Obama's references match
        // each other and not Biden's.
        let refs = try store.list()
        XCTAssertGreaterThan(refs[0].embedding.cosine(refs[1].embedding), 0.45)
        XCTAssertLessThan(refs[0].embedding.cosine(added.embedding), 0.45)
    }

    func testReferenceEmbeddingAveragesTheFaceAndItsMirror() throws {
        let pipeline = try FacePipeline.shared()
        let crop = try Fixtures.image("sface/obama.png")
        let a = pipeline.recognizer.embed(crop), b = pipeline.recognizer.embed(FaceAlignment.mirrored(crop))
        let ref = pipeline.referenceEmbedding(crop)
        XCTAssertEqual(ref.cosine(Embedding.average([a, b])), 1, accuracy: 1e-6)
        XCTAssertLessThan(a.cosine(b), 0.999, "the mirror image is a different input")
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
