import Foundation
import TestSupport
import XCTest

@testable import Faces
@testable import Imaging

/// Our SFace against onnxruntime on the dequantized ONNX graph (fixtures made by
/// tools/export_weights.py): whole embeddings, and activations layer by layer, of the float
/// network (the int8 one is held to the user's bar in SFaceInt8Tests).
final class SFaceGoldenTests: XCTestCase {
    func testEmbeddingsMatchOnnxRuntime() throws {
        let model = try SFace.baked(.float)
        let entries = try Fixtures.decode([SFaceGoldenEntry].self, "sface/golden.json")
        XCTAssertGreaterThanOrEqual(entries.count, 10)
        var worst: Float = 1
        for e in entries {
            let name = e.name
            let crop = try Fixtures.image("sface/\(e.file)")
            let want = e.embedding.values
            let got = model.forward(crop)
            let cos = Fixtures.cosine(got, want)
            worst = min(worst, cos)
            // The user's bar is 0.998; with lossless weights anything under 0.9999 is a bug.
            XCTAssertGreaterThanOrEqual(cos, 0.9999, "\(name): cosine \(cos)")
            let normalized = model.embed(crop)
            XCTAssertEqual(normalized.cosine(normalized), 1, accuracy: 1e-5)
            XCTAssertEqual(normalized.values.reduce(0) { $0 + $1 * $1 }, 1, accuracy: 1e-4, "\(name): embedding not unit length")
            XCTAssertGreaterThanOrEqual(Fixtures.cosine(normalized.values, want), 0.9999)
        }
        print("SFace golden: \(entries.count) fixtures, minimum cosine \(worst)")
    }

    /// Like llm.c's check against a reference dump: every PReLU output, sampled, so a mismatch
    /// names the first layer that goes wrong rather than only the final embedding.
    func testEveryLayerMatchesOnnxRuntime() throws {
        let probe = try Fixtures.decode(SFaceLayerProbe.self, "sface/layers.json")
        let crop = try Fixtures.image("sface/\(probe.crop)")
        var captured: [String: [Float]] = [:]
        var shapes: [String: (Int, Int, Int)] = [:]
        _ = try SFace.baked(.float).forward(crop) { name, t in
            captured[name] = t.values()
            shapes[name] = (t.channels, t.height, t.width)
        }
        var checked = 0
        for layer in probe.layers {
            let name = layer.name
            guard let values = captured[name], let (c, h, w) = shapes[name] else { continue }
            XCTAssertEqual([c, h, w], Array(layer.shape.dropFirst()), "\(name): shape")
            var maxErr: Float = 0
            for (pos, v) in zip(layer.positions, layer.values.values) {
                let got = values[(pos.y * w + pos.x) * c + pos.c]
                maxErr = max(maxErr, abs(got - v))
            }
            XCTAssertLessThan(maxErr, 1e-3, "\(name): max abs error \(maxErr)")
            let mean = values.reduce(0.0) { $0 + Double($1) } / Double(values.count)
            XCTAssertEqual(mean, layer.mean, accuracy: 1e-3, "\(name): mean")
            checked += 1
        }
        XCTAssertEqual(checked, 27, "every conv's PReLU output should be probed")
    }
}
