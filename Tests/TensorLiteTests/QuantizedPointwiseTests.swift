import XCTest

@testable import TensorLite

/// The int8 pointwise layer: the build's int8 kernel (`vpdpbusd`, or AVX2's `vpmaddwd`) against
/// its one-value-at-a-time reference (the same integer sums and float operations, so equal bit for
/// bit), and both against the float layer on the same (dequantized) weights.
final class QuantizedPointwiseTests: XCTestCase {
    /// Pixel counts around the 6-pixel tile and the chunk of quantized rows (32 KB: 512 pixels of
    /// 64 channels, 32 of 1024), channel counts that fill 32-wide panels, end in a 16-wide one or
    /// in padding, and rows of one block, several, or a last short one.
    static let shapes: [(h: Int, w: Int, cin: Int, cout: Int, block: Int)] = [
        (1, 1, 1, 1, 16), (3, 5, 7, 13, 16), (7, 7, 64, 64, 64), (2, 9, 33, 65, 32), (5, 3, 17, 130, 16), (4, 4, 128, 200, 64),
        (1, 7, 3, 16, 16), (6, 6, 100, 48, 64), (1, 5, 20, 64, 32), (2, 7, 9, 80, 16), (1, 11, 70, 144, 64), (23, 23, 64, 128, 64),
        (7, 7, 1024, 64, 64), (3, 13, 512, 20, 64), (8, 7, 32, 64, 32), (9, 9, 96, 32, 64),
    ]

    /// Random int8 blocks, their scales and zero points, per-output scales, and the float
    /// weights they stand for.
    struct Weights {
        let q: [Int8], scales: [Float], zeros: [Int8], outputScale: [Float], floats: [Float]

        init(cin: Int, cout: Int, block: Int, rng: inout SplitMix64) {
            let blocks = (cin + block - 1) / block
            q = (0..<(cin * cout)).map { _ in Int8.random(in: -128...127, using: &rng) }
            scales = (0..<(cout * blocks)).map { _ in Float.random(in: 0.001...0.01, using: &rng) }
            zeros = (0..<(cout * blocks)).map { _ in Int8.random(in: -100...100, using: &rng) }
            outputScale = rng.floats(cout, scale: 2)
            var floats = [Float](repeating: 0, count: cin * cout)
            for n in 0..<cout {
                for k in 0..<cin {
                    let b = n * blocks + k / block
                    floats[n * cin + k] = Float(Int32(q[n * cin + k]) - Int32(zeros[b])) * scales[b] * outputScale[n]
                }
            }
            self.floats = floats
        }

        func layer(cin: Int, cout: Int, block: Int, bias: [Float], activation: Activation) -> QuantizedPointwiseConv {
            QuantizedPointwiseConv(
                q: q, scales: scales, zeroPoints: zeros, blockSize: block, outputScale: outputScale, bias: bias,
                inChannels: cin, outChannels: cout, activation: activation)
        }
    }

    func testKernelEqualsItsReference() throws {
        try XCTSkipUnless(QuantizedPointwiseConv.isFast, "this build has no int8 kernel; run() is the reference")
        var rng = SplitMix64(seed: 41)
        for s in Self.shapes {
            let conv = Weights(cin: s.cin, cout: s.cout, block: s.block, rng: &rng)
                .layer(cin: s.cin, cout: s.cout, block: s.block, bias: rng.floats(s.cout), activation: rng.activation(channels: s.cout))
            // Mostly positive inputs with a negative tail, as PReLU outputs are.
            let input = Tensor(
                height: s.h, width: s.w, channels: s.cin, values: rng.floats(s.h * s.w * s.cin, scale: 3).map { $0 > 0 ? $0 : 0.2 * $0 })
            let got = Tensor(height: s.h, width: s.w, channels: s.cout)
            conv.run(input, into: got)
            let want = Tensor(height: s.h, width: s.w, channels: s.cout)
            conv.reference(input: input.data, inputStride: input.pixelStride, output: want.data, outputStride: want.pixelStride, pixels: s.h * s.w)
            XCTAssertEqual(got.values(), want.values(), "int8 pointwise \(s)")
            for p in 0..<(s.h * s.w) {
                for c in s.cout..<got.pixelStride where got.data[p * got.pixelStride + c] != 0 {
                    XCTFail("int8 pointwise \(s): padding lane \(c) of pixel \(p) is not zero")
                }
            }
        }
    }

    /// The weights are the float layer's exactly, so what differs is the inputs' rounding: each
    /// input is off by at most 1.5 steps of its block's range / 255 (half a step, and a step
    /// where the zero point's rounding meets an end of the range), so each output by at most
    /// that times the sum of its weights' magnitudes in the block (the activations only shrink
    /// differences); and in all, by far less.
    func testCloseToTheFloatLayer() {
        var rng = SplitMix64(seed: 42)
        var worst: Float = 0
        for s in Self.shapes {
            let weights = Weights(cin: s.cin, cout: s.cout, block: s.block, rng: &rng)
            let bias = rng.floats(s.cout), act = rng.activation(channels: s.cout)
            let x = rng.floats(s.h * s.w * s.cin, scale: 3)
            let out = Tensor(height: s.h, width: s.w, channels: s.cout)
            weights.layer(cin: s.cin, cout: s.cout, block: s.block, bias: bias, activation: act)
                .run(Tensor(height: s.h, width: s.w, channels: s.cin, values: x), into: out)
            let want = PointwiseConv.reference(
                input: x, pixels: s.h * s.w, weights: weights.floats, bias: bias, inChannels: s.cin, outChannels: s.cout, activation: act)
            let got = out.values()
            var squaredError: Float = 0, squaredValue: Float = 0
            for p in 0..<(s.h * s.w) {
                let pixel = x[(p * s.cin)..<((p + 1) * s.cin)]
                let steps = stride(from: 0, to: s.cin, by: s.block).map { b0 -> Float in
                    let block = pixel[(pixel.startIndex + b0)..<(pixel.startIndex + min(s.cin, b0 + s.block))]
                    return (max(block.max()!, 0) - min(block.min()!, 0)) / 255
                }
                for n in 0..<s.cout {
                    var bound: Float = 0
                    for k in 0..<s.cin { bound += 1.5 * steps[k / s.block] * abs(weights.floats[n * s.cin + k]) }
                    let i = p * s.cout + n
                    XCTAssertLessThanOrEqual(abs(got[i] - want[i]), bound * 1.001 + 1e-4, "int8 pointwise \(s): pixel \(p) output \(n)")
                    squaredError += (got[i] - want[i]) * (got[i] - want[i])
                    squaredValue += want[i] * want[i]
                }
            }
            let relative = (squaredError / max(squaredValue, 1e-12)).squareRoot()
            worst = max(worst, relative)
            XCTAssertLessThan(relative, 0.01, "int8 pointwise \(s): rms error \(relative) of the outputs' rms")
        }
        print("int8 pointwise: rms error at most \(worst) of the outputs' rms")
    }

    /// A pixel of zeros quantizes to zeros (no division by its zero range) and gives the bias; a
    /// pixel's values at its range's ends come back exactly.
    func testZeroPixelGivesTheBias() {
        let conv = QuantizedPointwiseConv(
            q: [1, -2, 3, 4, 5, -6], scales: [1, 1], zeroPoints: [0, 0], blockSize: 16, outputScale: nil,
            bias: [0.5, -0.25], inChannels: 3, outChannels: 2)
        let out = Tensor(height: 1, width: 2, channels: 2)
        conv.run(Tensor(height: 1, width: 2, channels: 3, values: [0, 0, 0, 0, 0, 255]), into: out)
        XCTAssertEqual(out.values(), [0.5, -0.25, 3 * 255 + 0.5, -6 * 255 - 0.25])
    }
}
