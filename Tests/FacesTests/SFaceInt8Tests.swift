import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import Faces
@testable import Imaging

/// The int8 network (the product's where the build has an int8 kernel) against the float one, on the
/// user's bar: every face embedded at cosine >= 0.998 to the float embedding, and no verdict at
/// the match line (0.45) or the strong line (0.57) moved on any pair of faces we have.
final class SFaceInt8Tests: XCTestCase {
    /// Every face of the fixture photos as the pipeline finds and aligns it, and the aligned crops
    /// of sface/ (the synthetic grey and noise ones included).
    private func faces() throws -> [(name: String, crop: RGBImage)] {
        let detector = try FaceDetector.shared()
        var faces: [(String, RGBImage)] = []
        for photo in [
            "solvay1927", "two_people", "obama_and_biden", "obama", "obama2", "obama3", "obama4", "biden", "biden2", "collins_nasa", "obama-1080p",
        ] {
            let image = try Fixtures.image("yunet/\(photo).png")
            for (i, face) in detector.detect(image).enumerated() {
                faces.append(("\(photo) face \(i)", FaceAlignment.align(image, landmarks: face.landmarks)))
            }
        }
        for e in try Fixtures.decode([SFaceGoldenEntry].self, "sface/golden.json") {
            faces.append(("sface/\(e.file)", try Fixtures.image("sface/\(e.file)")))
        }
        return faces
    }

    func testInt8EmbedsEveryFaceAsTheFloatNetworkDoes() throws {
        try XCTSkipUnless(SFace.Arithmetic.fastest == .int8, "this build has no int8 kernels, so the product embeds in float")
        XCTAssertEqual(try SFace.shared().arithmetic, .int8, "the product's network is the int8 one where the build has int8 kernels")
        let int8 = try SFace.baked(.int8), float = try SFace.baked(.float)
        let faces = try faces()
        XCTAssertGreaterThanOrEqual(faces.count, 50)
        let a = int8.embed(faces.map(\.crop)), b = float.embed(faces.map(\.crop))
        var worst: Float = 1
        for (i, f) in faces.enumerated() {
            let c = a[i].cosine(b[i])
            worst = min(worst, c)
            XCTAssertGreaterThanOrEqual(c, 0.998, "\(f.name): int8 vs float cosine \(c)")
        }
        // Verification as the product does it: a face of a video against a reference photo's
        // embedding (the face as it is and mirrored, averaged), each network with its own.
        let detector = try FaceDetector.shared()
        let int8References = faces.map { FacePipeline(detector: detector, recognizer: int8).referenceEmbedding($0.crop) }
        let floatReferences = faces.map { FacePipeline(detector: detector, recognizer: float).referenceEmbedding($0.crop) }
        var pairs = 0, moved = 0, closest: Float = 1, largest: Float = 0
        for i in faces.indices {
            for j in faces.indices where j != i {
                let x = a[i].cosine(int8References[j]), y = b[i].cosine(floatReferences[j])
                pairs += 1
                closest = min(closest, abs(y - Identity.Thresholds.standard.match))
                largest = max(largest, abs(x - y))
                for line in [Identity.Thresholds.standard.match, Identity.Thresholds.standard.strong] where (x >= line) != (y >= line) {
                    moved += 1
                    XCTFail("\(faces[i].name) against \(faces[j].name): cosine \(y) in float, \(x) in int8, across \(line)")
                }
            }
        }
        XCTAssertEqual(moved, 0)
        print(
            String(
                format:
                    "SFace int8 vs float: %d faces, 1 - minimum cosine %.2e; %d pairs against references, cosines moved %.4f at most, none across 0.45 or 0.57 (nearest float pair %.4f from 0.45)",
                faces.count, 1 - worst, pairs, largest, closest))
    }
}
