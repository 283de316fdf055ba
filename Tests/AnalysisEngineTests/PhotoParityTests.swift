import Foundation
import TestSupport
import XCTest

@testable import Faces
@testable import Imaging
@testable import MediaIO

/// Our photo decoding against OpenCV's imread (libjpeg-turbo), on which the face models' golden
/// numbers are made: pixels of small JPEGs at every chroma subsampling, and the faces of whole
/// original JPEGs through the pipeline (Fixtures/photos, made by tools/fixtures/photo_fixtures.py).
final class PhotoParityTests: XCTestCase {
    struct Golden: Decodable {
        struct Small: Decodable {
            let jpeg: String
            let imread: String
            let subsampling: String
        }
        struct Face: Decodable {
            let box: FixtureBox
            let embedding: Floats
        }
        let small: [Small]
        let photos: [FixturePhoto<Face>]
    }

    func testSmallJPEGsDecodeAsImreadDoes() throws {
        let golden = try Fixtures.decode(Golden.self, "photos/golden.json")
        XCTAssertEqual(golden.small.count, 8)
        for entry in golden.small {
            let ours = try Fixtures.image("photos/\(entry.jpeg)")
            let imread = try Fixtures.image("photos/\(entry.imread)")
            XCTAssertEqual(ours.width, imread.width)
            XCTAssertEqual(ours.height, imread.height)
            guard ours.pixels.count == imread.pixels.count else { continue }
            var sum = 0, worst = 0
            for (a, b) in zip(ours.pixels, imread.pixels) {
                let d = abs(Int(a) - Int(b))
                sum += d
                worst = max(worst, d)
            }
            let mean = Double(sum) / Double(ours.pixels.count)
            print("\(entry.jpeg) (\(entry.subsampling)) vs imread: mean \(mean), max \(worst) levels")
            // The same pixels (libswscale's were 0.3-0.6 levels off on average, up to 26).
            XCTAssertEqual(worst, 0, entry.jpeg)
        }
    }

    func testFacesOfOriginalJPEGsEmbedAsOpenCVDoes() throws {
        let golden = try Fixtures.decode(Golden.self, "photos/golden.json")
        var pipeline = try FacePipeline.shared()
        pipeline.detector.detectionSize = nil
        var cosines: [Float] = []
        for photo in golden.photos {
            let image = try Fixtures.image("photos/\(photo.file)")
            let ours = pipeline.faces(in: image, embed: true)
            var worst: Float = 1
            for face in photo.faces {
                let b = face.box.box
                guard let mine = ours.max(by: { $0.face.box.intersectionOverUnion(b) < $1.face.box.intersectionOverUnion(b) }),
                    mine.face.box.intersectionOverUnion(b) > 0.5, let embedding = mine.embedding
                else {
                    XCTFail("\(photo.file): OpenCV's face at \(b) not found")
                    continue
                }
                let cos = Fixtures.cosine(embedding.values, face.embedding.values)
                XCTAssertGreaterThanOrEqual(cos, 0.99, "\(photo.file): face at \(b)")
                cosines.append(cos)
                worst = min(worst, cos)
            }
            print("\(photo.file): \(photo.faces.count) faces, minimum cosine \(worst)")
        }
        XCTAssertGreaterThanOrEqual(cosines.count, 30)
        let mean = cosines.reduce(0, +) / Float(max(cosines.count, 1))
        print(
            "original JPEG -> our decoder -> pipeline vs imread -> OpenCV: \(cosines.count) faces, minimum cosine \(cosines.min() ?? 0), mean \(mean)"
        )
    }
}
