import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import Faces
@testable import Imaging

/// The iris landmark model and the eye reader against the model's own runtime (ai-edge-litert) on
/// committed eye crops, and the open/closed decision on a real blink (fixtures: tools/fixtures/iris_fixtures.py).
final class IrisLandmarkGoldenTests: XCTestCase {
    /// Points are crop pixels (0-64): a thousandth of a pixel is float rounding in a different
    /// summation order; a wrong weight or layer moves points by tenths of a pixel or more.
    static let tolerance: Float = 1e-3

    func testLandmarksMatchLiteRT() throws {
        let golden = try Fixtures.decode(IrisGolden.self, "iris/golden.json")
        XCTAssertGreaterThanOrEqual(golden.crops.count, 8)
        let model = try IrisLandmark.shared()
        var worst: Float = 0
        for c in golden.crops {
            let out = model.run(try Fixtures.image("iris/\(c.file)"))
            XCTAssertEqual(out.contour.count, 3 * IrisLandmark.contourCount, c.file)
            XCTAssertEqual(out.iris.count, 3 * IrisLandmark.irisCount, c.file)
            for (what, got, want) in [("contour", out.contour, c.contour), ("iris", out.iris, c.iris)] {
                let err = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
                worst = max(worst, err)
                XCTAssertLessThan(err, Self.tolerance, "\(c.file) \(what): max abs difference \(err) px")
            }
            // Without the iris branch the contour is the same, bit for bit.
            XCTAssertEqual(model.run(try Fixtures.image("iris/\(c.file)"), iris: false).contour, out.contour, c.file)
            XCTAssertEqual(EyeReader.openness(out), c.openness, accuracy: 1e-4, c.file)
        }
        print("iris landmarks: \(golden.crops.count) crops, max abs difference \(worst) px")
    }

    /// The same person's eyes open and mid-blink, through EyeReader's own crops of the frame.
    func testOpenAndBlinkingEyes() throws {
        let golden = try Fixtures.decode(IrisGolden.self, "iris/golden.json")
        let reader = try EyeReader.shared()
        var closed: [Bool] = []
        for f in golden.faces {
            let image = try Fixtures.image("iris/\(f.file)")
            let points = stride(from: 0, to: 10, by: 2).map { Point(f.landmarks[$0], f.landmarks[$0 + 1]) }
            let face = DetectedFace(box: Box(x: f.box[0], y: f.box[1], width: f.box[2], height: f.box[3]), landmarks: points, score: 1)
            let eyes = reader.eyes(of: face, in: image)
            // Our warp and OpenCV's may differ by one level in a few pixels: a hundredth of openness.
            XCTAssertEqual(eyes.right, f.openness[0], accuracy: 0.01, f.file)
            XCTAssertEqual(eyes.left, f.openness[1], accuracy: 0.01, f.file)
            XCTAssertEqual(eyes.closed, f.judgeEAR < 0.15, "\(f.file): openness \(eyes), FaceMesh EAR \(f.judgeEAR)")
            closed.append(eyes.closed)
        }
        XCTAssertEqual(Set(closed), [false, true], "one open face and one blink")
    }

    func testEyeCropsMatchOpenCVWarp() throws {
        let golden = try Fixtures.decode(IrisGolden.self, "iris/golden.json")
        for f in golden.faces {
            let image = try Fixtures.image("iris/\(f.file)")
            let points = stride(from: 0, to: 10, by: 2).map { Point(f.landmarks[$0], f.landmarks[$0 + 1]) }
            let face = DetectedFace(box: Box(x: 0, y: 0, width: 1, height: 1), landmarks: points, score: 1)
            let (right, left) = EyeReader.crops(of: face, in: image)
            let name = f.file.replacingOccurrences(of: "face_", with: "eye_").replacingOccurrences(of: ".png", with: "")
            for (crop, side) in [(right, "right"), (left, "left")] {
                let want = try Fixtures.image("iris/\(name)_\(side).png")
                let diff = zip(crop.pixels, want.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
                XCTAssertLessThanOrEqual(diff, 1, "\(name) \(side): pixels differ by up to \(diff)")
            }
        }
    }
}

struct IrisGolden: Decodable {
    struct Crop: Decodable {
        let file: String
        let contour: [Float]
        let iris: [Float]
        let openness: Float
    }
    struct Face: Decodable {
        let file: String
        let landmarks: [Float]
        let box: [Float]
        let openness: [Float]
        let judgeEAR: Float
    }
    let crops: [Crop]
    let faces: [Face]
}
