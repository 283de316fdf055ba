import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import Faces
@testable import Imaging

/// Our YuNet and its post-processing against onnxruntime (raw head outputs) and OpenCV's
/// FaceDetectorYN (faces), on the fixtures of tools/export_weights.py.
final class YuNetGoldenTests: XCTestCase {
    func testRawHeadOutputsMatchOnnxRuntime() throws {
        let cases = try Fixtures.decode(YuNetRawOutputs.self, "yunet/raw.json").cases
        XCTAssertGreaterThanOrEqual(cases.count, 6)
        let net = try YuNet.shared()
        var worst: Float = 0
        for c in cases {
            let name = c.name
            var image = try Fixtures.image("yunet/\(c.inputPNG)")
            if let crop = c.crop { image = Crop.crop(image, x: crop.x, y: crop.y, width: crop.width, height: crop.height) }
            XCTAssertEqual([image.width, image.height], c.size, name)
            let levels = net.run(FaceDetector.padToMultipleOf32(image))
            for level in levels {
                for (kind, got) in [("cls", level.cls), ("obj", level.obj), ("bbox", level.bbox), ("kps", level.kps)] {
                    let output = try XCTUnwrap(c.outputs["\(kind)_\(level.stride)"], "yunet/raw.json: \(name) has no output \(kind)_\(level.stride)")
                    let want = try Fixtures.floats("yunet/\(output.file)")
                    XCTAssertEqual(got.count, want.count, "\(name) \(kind)_\(level.stride)")
                    let err = zip(got, want).map { abs($0 - $1) }.max() ?? 0
                    worst = max(worst, err)
                    XCTAssertLessThan(err, 1e-3, "\(name) \(kind)_\(level.stride): max abs difference \(err)")
                }
            }
        }
        print("YuNet raw outputs: \(cases.count) inputs, max abs difference \(worst)")
    }

    func testFacesMatchOpenCVFaceDetectorYN() throws {
        let index = try Fixtures.decode(YuNetFaces.self, "yunet/faces.json")
        var detector = try FaceDetector.shared()
        detector.detectionSize = nil
        detector.scoreThreshold = Float(index.scoreThreshold)
        var minIoU: Float = 1, maxLandmark: Float = 0, maxScore: Float = 0, total = 0
        for photo in index.photos {
            let file = photo.file
            let want = photo.faces.map {
                DetectedFace(box: $0.box.box, landmarks: $0.landmarks.map(\.point), score: Float($0.score))
            }
            let got = detector.detect(try Fixtures.image("yunet/\(file)"))
            XCTAssertEqual(got.count, want.count, "\(file): face count")
            for w in want {
                guard let g = got.max(by: { $0.box.intersectionOverUnion(w.box) < $1.box.intersectionOverUnion(w.box) }) else { continue }
                let iou = g.box.intersectionOverUnion(w.box)
                minIoU = min(minIoU, iou)
                XCTAssertGreaterThanOrEqual(iou, 0.98, "\(file): IoU \(iou)")
                for (a, b) in zip(g.landmarks, w.landmarks) {
                    let d = max(abs(a.x - b.x), abs(a.y - b.y))
                    maxLandmark = max(maxLandmark, d)
                    XCTAssertLessThanOrEqual(d, 1, "\(file): landmark off by \(d) px")
                }
                maxScore = max(maxScore, abs(g.score - w.score))
                XCTAssertLessThanOrEqual(abs(g.score - w.score), 0.01, "\(file): score")
                total += 1
            }
        }
        XCTAssertGreaterThanOrEqual(total, 40)
        print("FaceDetectorYN golden: \(total) faces, min IoU \(minIoU), max landmark error \(maxLandmark) px, max score error \(maxScore)")
    }

    func testCrowdedGroupPhotoFindsAllTwentyNineFaces() throws {
        var detector = try FaceDetector.shared()
        detector.detectionSize = nil
        XCTAssertEqual(detector.detect(try Fixtures.image("yunet/solvay1927.png")).count, 29)
    }
}
