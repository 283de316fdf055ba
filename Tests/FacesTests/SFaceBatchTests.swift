import Foundation
import SFaceWeights
import TestSupport
import XCTest

@testable import Faces
@testable import Imaging

/// Batches and the int8 head: a face's embedding must not depend on the batch it came in, and fc1
/// from int8 blocks must agree with fc1 from the dequantized floats.
final class SFaceBatchTests: XCTestCase {
    private func goldenCrops() throws -> [(RGBImage, [Float])] {
        try Fixtures.decode([SFaceGoldenEntry].self, "sface/golden.json").map { (try Fixtures.image("sface/\($0.file)"), $0.embedding.values) }
    }

    func testBatchesAreBitIdenticalToSingleFaces() throws {
        let model = try SFace.shared()
        let crops = try goldenCrops().map(\.0)
        let single = crops.map { model.forward($0) }
        for size in [1, 2, 3, 4, 5, 8, crops.count] {
            var got: [[Float]] = []
            for start in stride(from: 0, to: crops.count, by: size) {
                got += model.forward(batch: Array(crops[start..<min(crops.count, start + size)]))
            }
            XCTAssertEqual(got, single, "batch of \(size) differs from faces one at a time")
        }
        XCTAssertEqual(model.embed(crops).map(\.values), crops.map { model.embed($0).values })
        XCTAssertEqual(model.embed([RGBImage]()).count, 0)
    }

    func testInt8HeadMatchesFloatHead() throws {
        let floatHead = try SFace.baked(.float, quantizedHead: false)
        let model = try SFace.baked(.float)
        XCTAssertTrue(model.runsInt8Head, "the baked weights' fc1 runs from its int8 blocks")
        XCTAssertFalse(floatHead.runsInt8Head)
        var worstHeads: Float = 1, worstFloatVsOnnx: Float = 1, worstInt8VsOnnx: Float = 1
        for (crop, want) in try goldenCrops() {
            let a = model.forward(crop), b = floatHead.forward(crop)
            worstHeads = min(worstHeads, Fixtures.cosine(a, b))
            worstFloatVsOnnx = min(worstFloatVsOnnx, Fixtures.cosine(b, want))
            worstInt8VsOnnx = min(worstInt8VsOnnx, Fixtures.cosine(a, want))
            let scale = b.map(abs).max()!
            for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: 1e-4 * scale) }
        }
        XCTAssertGreaterThanOrEqual(worstHeads, 0.99999)
        print(
            String(
                format: "SFace int8 head vs float head: 1 - minimum cosine %.2e; vs onnxruntime: int8 %.2e, float %.2e",
                1 - worstHeads, 1 - worstInt8VsOnnx, 1 - worstFloatVsOnnx))
    }

    func testPipelineBatchesCoverEveryFaceOnce() {
        for count in 0...40 {
            for cores in 1...4 {
                let b = FacePipeline.batches(count, cores: cores)
                XCTAssertEqual(b.flatMap { Array($0) }, Array(0..<count))
                XCTAssertTrue(b.allSatisfy { !$0.isEmpty && $0.count <= 8 })
                if count >= cores { XCTAssertEqual(b.count % cores, 0) }
            }
        }
    }
}
