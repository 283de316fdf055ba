import Foundation
import XCTest
@testable import Imaging
@testable import Faces
@testable import Analysis

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

/// Alignment and the whole photo -> face -> crop -> embedding path against OpenCV's
/// FaceRecognizerSF (alignCrop + feature).
final class AlignmentGoldenTests: XCTestCase {
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
                      mine.face.box.intersectionOverUnion(b) > 0.9 else {
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
