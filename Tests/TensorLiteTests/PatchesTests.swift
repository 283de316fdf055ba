import TensorLite
import XCTest

/// `Patches` against its reference, and a convolution run as patches into the pointwise GEMM
/// against a direct sum over its taps (how the iris model runs its 3x3 and 2x2 convolutions).
final class PatchesTests: XCTestCase {
    func testPatchesMatchReference() {
        var rng = SplitMix64(seed: 11)
        // (h, w, channels, size, stride, padTop, padLeft, padBottom, padRight): channels of 3 (value
        // by value) and of whole vectors, TFLite's SAME padding (after the map only), and 2x2 stride 2.
        let shapes = [
            (64, 64, 3, 3, 2, 0, 0, 1, 1), (7, 5, 3, 3, 2, 1, 1, 1, 1), (8, 8, 64, 2, 2, 0, 0, 0, 0), (4, 6, 128, 2, 2, 0, 0, 0, 0),
            (5, 5, 16, 3, 1, 1, 1, 1, 1), (2, 2, 128, 2, 2, 0, 0, 0, 0), (3, 4, 20, 2, 1, 0, 1, 1, 0),
        ]
        for (h, w, c, k, s, pt, pl, pb, pr) in shapes {
            let x = rng.floats(h * w * c)
            let patches = Patches(size: k, stride: s, padTop: pt, padLeft: pl, inChannels: c)
            let (oh, ow) = patches.outputShape(height: h, width: w, padBottom: pb, padRight: pr)
            let out = Tensor(height: oh, width: ow, channels: patches.outChannels)
            // Garbage first: every value, padding lanes included, must be written.
            for i in 0..<(oh * ow * out.pixelStride) { out.data[i] = .nan }
            patches.run(Tensor(height: h, width: w, channels: c, values: x), into: out)
            let want = patches.reference(input: x, height: h, width: w, outHeight: oh, outWidth: ow)
            XCTAssertEqual(out.values(), want, "patches \(h)x\(w)x\(c) k\(k) s\(s)")
            assertPaddingZero(out)
        }
    }

    func testConvolutionAsPatchesIntoPointwise() {
        var rng = SplitMix64(seed: 12)
        for (h, w, cin, cout, k, s, pt, pb) in [(64, 64, 3, 64, 3, 2, 0, 1), (8, 8, 64, 64, 2, 2, 0, 0), (2, 2, 128, 15, 2, 2, 0, 0)] {
            let x = rng.floats(h * w * cin)
            let weights = rng.floats(cout * k * k * cin, scale: 0.2)  // [out][ky][kx][in]
            let bias = rng.floats(cout)
            let patches = Patches(size: k, stride: s, padTop: pt, padLeft: pt, inChannels: cin)
            let (oh, ow) = patches.outputShape(height: h, width: w, padBottom: pb, padRight: pb)
            let cols = Tensor(height: oh, width: ow, channels: patches.outChannels)
            patches.run(Tensor(height: h, width: w, channels: cin, values: x), into: cols)
            let out = Tensor(height: oh, width: ow, channels: cout)
            PointwiseConv(weights: weights, bias: bias, inChannels: k * k * cin, outChannels: cout).run(cols, into: out)
            var want = [Float](repeating: 0, count: oh * ow * cout)
            for oy in 0..<oh {
                for ox in 0..<ow {
                    for o in 0..<cout {
                        var sum = bias[o]
                        for ky in 0..<k {
                            for kx in 0..<k {
                                let iy = oy * s - pt + ky, ix = ox * s - pt + kx
                                guard iy >= 0 && iy < h && ix >= 0 && ix < w else { continue }
                                for c in 0..<cin { sum += x[(iy * w + ix) * cin + c] * weights[((o * k + ky) * k + kx) * cin + c] }
                            }
                        }
                        want[(oy * ow + ox) * cout + o] = sum
                    }
                }
            }
            assertClose(out.values(), want, "conv \(k)x\(k) s\(s) \(h)x\(w)x\(cin)->\(cout)")
        }
    }
}
