import Foundation
import TestSupport
import XCTest

@testable import Faces
@testable import Imaging

/// Alignment and the whole photo -> face -> crop -> embedding path against OpenCV's
/// FaceRecognizerSF (alignCrop + feature).
final class FaceAlignmentGoldenTests: XCTestCase {
    func testAlignedCropsMatchOpenCVAlignCrop() throws {
        let index = try Fixtures.decode(YuNetAlignment.self, "yunet/align.json")
        var worst = 0.0, crops = 0
        for photo in index.photos {
            let image = try Fixtures.image("yunet/\(photo.file)")
            for face in photo.faces {
                guard let cropFile = face.crop else { continue }
                let want = try Fixtures.image("yunet/\(cropFile)")
                let got = FaceAlignment.align(image, landmarks: face.landmarks.map(\.point))
                let mad = zip(got.pixels, want.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(want.pixels.count)
                worst = max(worst, mad)
                XCTAssertLessThanOrEqual(mad, 2, "\(cropFile): mean absolute difference \(mad) levels")
                crops += 1
            }
        }
        XCTAssertGreaterThanOrEqual(crops, 8)
        print("alignment vs alignCrop: \(crops) crops, worst mean absolute difference \(worst) levels")
    }

    func testWholePipelineMatchesOpenCV() throws {
        let index = try Fixtures.decode(YuNetAlignment.self, "yunet/align.json")
        var pipeline = try FacePipeline.shared()
        pipeline.detector.detectionSize = nil
        var worst: Float = 1, faces = 0
        for photo in index.photos {
            let file = photo.file
            let ours = pipeline.faces(in: try Fixtures.image("yunet/\(file)"), embed: true)
            for face in photo.faces {
                let b = face.box.box
                guard let mine = ours.max(by: { $0.face.box.intersectionOverUnion(b) < $1.face.box.intersectionOverUnion(b) }),
                    mine.face.box.intersectionOverUnion(b) > 0.9
                else {
                    XCTFail("\(file): OpenCV's face at \(b) not found")
                    continue
                }
                let cos = Fixtures.cosine(mine.embedding!.values, face.embedding.values)
                worst = min(worst, cos)
                XCTAssertGreaterThanOrEqual(cos, 0.998, "\(file): cosine \(cos)")
                faces += 1
            }
        }
        XCTAssertGreaterThanOrEqual(faces, 30)
        print("photo -> detect -> align -> embed vs OpenCV: \(faces) faces, minimum cosine \(worst)")
    }

    func testSimilarityIsTheExactLeastSquaresSolution() {
        // A known rotation + scale + shift is recovered exactly from noiseless points.
        let angle = 0.3, scale = 1.7
        let truth = FaceAlignment.Similarity(a: (scale * cos(angle), scale * sin(angle)), b: (12, -7))
        let src = [Point(10, 20), Point(50, 22), Point(30, 40), Point(15, 60), Point(45, 61)]
        let fit = FaceAlignment.similarity(from: src, to: src.map(truth.apply))
        // Points are Float: exact up to single precision.
        XCTAssertEqual(fit.a.re, truth.a.re, accuracy: 1e-6)
        XCTAssertEqual(fit.a.im, truth.a.im, accuracy: 1e-6)
        XCTAssertEqual(fit.b.re, 12, accuracy: 1e-4)
        XCTAssertEqual(fit.b.im, -7, accuracy: 1e-4)
        // The template maps onto itself.
        let id = FaceAlignment.similarity(from: FaceAlignment.template, to: FaceAlignment.template)
        XCTAssertEqual(id.scale, 1, accuracy: 1e-9)
    }
}
