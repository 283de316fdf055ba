import Foundation
import TestSupport
import XCTest

/// The models' answers through the command line, held to the golden fixtures that hold the
/// engine to the tools it replaces: SFace's embeddings to onnxruntime's (`sface/golden.json`)
/// and YuNet's faces to OpenCV's `FaceDetectorYN` (`yunet/faces.json`). For every build that
/// is run: this one, and each kernel variant of the Debian package.
enum GoldenModels {
    /// Every embedding of `sface/golden.json` from `embed` (one run): its cosine to
    /// onnxruntime's above 0.9999.
    static func checkEmbeddings(
        _ glimt: ([String]) throws -> GlimtBinary.Run, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        struct Golden: Decodable { let file: String; let embedding: [Double] }
        struct Got: Decodable { let file: String; let embedding: [Double] }
        let golden = try JSONDecoder().decode([Golden].self, from: Data(contentsOf: Fixtures.url("sface/golden.json")))
        XCTAssertGreaterThanOrEqual(golden.count, 10, file: file, line: line)
        let run = try glimt(["embed"] + golden.map { Fixtures.path("sface/\($0.file)") })
        XCTAssertEqual(run.status, 0, "\(what): \(run.err)", file: file, line: line)
        let got = try JSONDecoder().decode([Got].self, from: Data(run.out.utf8))
        XCTAssertEqual(got.count, golden.count, what, file: file, line: line)
        var worst = 1.0
        for (g, want) in zip(got, golden) {
            let norm = want.embedding.reduce(0) { $0 + $1 * $1 }.squareRoot()
            let cosine = zip(g.embedding, want.embedding).reduce(0) { $0 + $1.0 * $1.1 } / norm
            worst = min(worst, cosine)
            XCTAssertGreaterThan(cosine, 0.9999, "\(what): \(want.file)", file: file, line: line)
        }
        print("\(what): \(got.count) SFace embeddings, worst cosine to onnxruntime \(worst)")
    }

    /// Every photo of `yunet/faces.json` through `faces --json`, detected at its own size as
    /// OpenCV was: the same number of faces, each box at IoU 0.98 or more, landmarks within a
    /// pixel, scores within 0.01 (the tolerances of YuNetGoldenTests).
    static func checkFaces(_ glimt: ([String]) throws -> GlimtBinary.Run, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        struct Golden: Decodable {
            struct Photo: Decodable { let file: String; let size: [Int]; let faces: [Face] }
            struct Face: Decodable { let box: [Double]; let landmarks: [[Double]]; let score: Double }
            let photos: [Photo]
        }
        struct Got: Decodable {
            struct Box: Decodable { let x, y, width, height: Double }
            struct Point: Decodable { let x, y: Double }
            struct Face: Decodable { let box: Box; let landmarks: [Point]; let score: Double }
            let faces: [Face]
        }
        func iou(_ a: [Double], _ b: Got.Box) -> Double {
            let w = max(0, min(a[0] + a[2], b.x + b.width) - max(a[0], b.x)), h = max(0, min(a[1] + a[3], b.y + b.height) - max(a[1], b.y))
            return w * h / (a[2] * a[3] + b.width * b.height - w * h)
        }
        let golden = try JSONDecoder().decode(Golden.self, from: Data(contentsOf: Fixtures.url("yunet/faces.json")))
        var total = 0
        for photo in golden.photos {
            let run = try glimt(["faces", "--json", "--detect-size", "\(photo.size.max()!)", Fixtures.path("yunet/\(photo.file)")])
            XCTAssertEqual(run.status, 0, "\(what): \(photo.file): \(run.err)", file: file, line: line)
            let got = try JSONDecoder().decode(Got.self, from: Data(run.out.utf8)).faces
            XCTAssertEqual(got.count, photo.faces.count, "\(what): \(photo.file): face count", file: file, line: line)
            for want in photo.faces {
                guard let g = got.max(by: { iou(want.box, $0.box) < iou(want.box, $1.box) }) else { continue }
                XCTAssertGreaterThanOrEqual(iou(want.box, g.box), 0.98, "\(what): \(photo.file)", file: file, line: line)
                for (a, b) in zip(g.landmarks, want.landmarks) {
                    XCTAssertLessThanOrEqual(max(abs(a.x - b[0]), abs(a.y - b[1])), 1, "\(what): \(photo.file): landmark", file: file, line: line)
                }
                XCTAssertLessThanOrEqual(abs(g.score - want.score), 0.01, "\(what): \(photo.file): score", file: file, line: line)
                total += 1
            }
        }
        XCTAssertGreaterThanOrEqual(total, 40, what, file: file, line: line)
        print("\(what): \(total) YuNet faces in \(golden.photos.count) photos, as OpenCV's FaceDetectorYN found them")
    }
}
