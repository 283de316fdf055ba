/// 1x1 convolution (stride 1) as a GEMM over pixels: out[p][n] = act(sum_k in[p][k] * w[n][k] + b[n]).
///
/// Weights are packed at load time into panels of 64 output channels laid out `[K][64]`, so one
/// step of the inner loop loads four vectors of weights and broadcasts one input value per pixel.
/// The register tile is 4 pixels x 64 channels: 16 accumulators, which keeps both FMA units busy
/// without spilling. Output channels that do not fill a 64-wide panel go into 16-wide panels.
public struct PointwiseConv: Sendable {
    public let inChannels: Int
    public let outChannels: Int
    let fullPanels: Int
    let narrowPanels: Int
    let packed: AlignedFloats
    let epilogue: Epilogue

    static let panel = 64

    /// `weights` is `[out][in]` (ONNX's `[out, in, 1, 1]`), `bias` is `[out]` or nil.
    public init(weights: [Float], bias: [Float]?, inChannels: Int, outChannels: Int, activation: Activation = .none) {
        precondition(weights.count == inChannels * outChannels, "PointwiseConv: \(weights.count) weights for \(outChannels)x\(inChannels)")
        self.inChannels = inChannels
        self.outChannels = outChannels
        let paddedOut = roundUp(outChannels, to: laneCount)
        fullPanels = paddedOut / Self.panel
        narrowPanels = (paddedOut - fullPanels * Self.panel) / laneCount
        packed = AlignedFloats(count: paddedOut * inChannels)
        // Panel layout: full panels first ([K][64] each), then narrow ones ([K][16] each).
        var offset = 0
        var n0 = 0
        for width in Array(repeating: Self.panel, count: fullPanels) + Array(repeating: laneCount, count: narrowPanels) {
            for k in 0..<inChannels {
                for j in 0..<width where n0 + j < outChannels {
                    packed.data[offset + k * width + j] = weights[(n0 + j) * inChannels + k]
                }
            }
            offset += width * inChannels
            n0 += width
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: outChannels)
    }

    public var flops: Int { 2 * inChannels * outChannels }

    /// `input` and `output` must have the same height and width.
    public func run(_ input: Tensor, into output: Tensor) {
        precondition(input.channels == inChannels && output.channels == outChannels, "PointwiseConv: channels \(input.channels)->\(output.channels), expected \(inChannels)->\(outChannels)")
        precondition(input.height == output.height && input.width == output.width, "PointwiseConv: spatial size mismatch")
        runPixels(input: input.data, inputStride: input.pixelStride, output: output.data, outputStride: output.pixelStride, pixels: input.pixelCount)
    }

    /// The GEMM over `pixels` pixels laid `inputStride` and `outputStride` floats apart.
    func runPixels(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        let K = inChannels
        var w = UnsafePointer(packed.data)
        var n0 = 0
        for _ in 0..<fullPanels {
            var p = 0
            while p + 4 <= pixels {
                tile4x64(input + p * inputStride, inputStride, w, K, output + p * outputStride + n0, outputStride, n0)
                p += 4
            }
            while p < pixels {
                tile1x64(input + p * inputStride, w, K, output + p * outputStride + n0, n0)
                p += 1
            }
            w += Self.panel * K
            n0 += Self.panel
        }
        for _ in 0..<narrowPanels {
            var p = 0
            while p + 4 <= pixels {
                tile4x16(input + p * inputStride, inputStride, w, K, output + p * outputStride + n0, outputStride, n0)
                p += 4
            }
            while p < pixels {
                tile1x16(input + p * inputStride, w, K, output + p * outputStride + n0, n0)
                p += 1
            }
            w += laneCount * K
            n0 += laneCount
        }
    }

    @inline(__always)
    private func tile4x64(_ a: UnsafePointer<Float>, _ aStride: Int, _ w: UnsafePointer<Float>, _ K: Int,
                          _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int) {
        var c00 = Vec(), c01 = Vec(), c02 = Vec(), c03 = Vec()
        var c10 = Vec(), c11 = Vec(), c12 = Vec(), c13 = Vec()
        var c20 = Vec(), c21 = Vec(), c22 = Vec(), c23 = Vec()
        var c30 = Vec(), c31 = Vec(), c32 = Vec(), c33 = Vec()
        let a0 = a, a1 = a + aStride, a2 = a + 2 * aStride, a3 = a + 3 * aStride
        var wp = w
        for k in 0..<K {
            let w0 = loadVec(wp), w1 = loadVec(wp + 16), w2 = loadVec(wp + 32), w3 = loadVec(wp + 48)
            let b0 = Vec(repeating: a0[k])
            c00.addProduct(b0, w0); c01.addProduct(b0, w1); c02.addProduct(b0, w2); c03.addProduct(b0, w3)
            let b1 = Vec(repeating: a1[k])
            c10.addProduct(b1, w0); c11.addProduct(b1, w1); c12.addProduct(b1, w2); c13.addProduct(b1, w3)
            let b2 = Vec(repeating: a2[k])
            c20.addProduct(b2, w0); c21.addProduct(b2, w1); c22.addProduct(b2, w2); c23.addProduct(b2, w3)
            let b3 = Vec(repeating: a3[k])
            c30.addProduct(b3, w0); c31.addProduct(b3, w1); c32.addProduct(b3, w2); c33.addProduct(b3, w3)
            wp += 64
        }
        let e = epilogue
        storeVec(e.apply(c00, channel: n0), out); storeVec(e.apply(c01, channel: n0 + 16), out + 16)
        storeVec(e.apply(c02, channel: n0 + 32), out + 32); storeVec(e.apply(c03, channel: n0 + 48), out + 48)
        let o1 = out + outStride
        storeVec(e.apply(c10, channel: n0), o1); storeVec(e.apply(c11, channel: n0 + 16), o1 + 16)
        storeVec(e.apply(c12, channel: n0 + 32), o1 + 32); storeVec(e.apply(c13, channel: n0 + 48), o1 + 48)
        let o2 = out + 2 * outStride
        storeVec(e.apply(c20, channel: n0), o2); storeVec(e.apply(c21, channel: n0 + 16), o2 + 16)
        storeVec(e.apply(c22, channel: n0 + 32), o2 + 32); storeVec(e.apply(c23, channel: n0 + 48), o2 + 48)
        let o3 = out + 3 * outStride
        storeVec(e.apply(c30, channel: n0), o3); storeVec(e.apply(c31, channel: n0 + 16), o3 + 16)
        storeVec(e.apply(c32, channel: n0 + 32), o3 + 32); storeVec(e.apply(c33, channel: n0 + 48), o3 + 48)
    }

    @inline(__always)
    private func tile1x64(_ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ K: Int,
                          _ out: UnsafeMutablePointer<Float>, _ n0: Int) {
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec()
        var wp = w
        for k in 0..<K {
            let b = Vec(repeating: a[k])
            c0.addProduct(b, loadVec(wp)); c1.addProduct(b, loadVec(wp + 16))
            c2.addProduct(b, loadVec(wp + 32)); c3.addProduct(b, loadVec(wp + 48))
            wp += 64
        }
        let e = epilogue
        storeVec(e.apply(c0, channel: n0), out); storeVec(e.apply(c1, channel: n0 + 16), out + 16)
        storeVec(e.apply(c2, channel: n0 + 32), out + 32); storeVec(e.apply(c3, channel: n0 + 48), out + 48)
    }

    @inline(__always)
    private func tile4x16(_ a: UnsafePointer<Float>, _ aStride: Int, _ w: UnsafePointer<Float>, _ K: Int,
                          _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int) {
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec()
        let a0 = a, a1 = a + aStride, a2 = a + 2 * aStride, a3 = a + 3 * aStride
        var wp = w
        for k in 0..<K {
            let wv = loadVec(wp)
            c0.addProduct(Vec(repeating: a0[k]), wv); c1.addProduct(Vec(repeating: a1[k]), wv)
            c2.addProduct(Vec(repeating: a2[k]), wv); c3.addProduct(Vec(repeating: a3[k]), wv)
            wp += 16
        }
        let e = epilogue
        storeVec(e.apply(c0, channel: n0), out); storeVec(e.apply(c1, channel: n0), out + outStride)
        storeVec(e.apply(c2, channel: n0), out + 2 * outStride); storeVec(e.apply(c3, channel: n0), out + 3 * outStride)
    }

    @inline(__always)
    private func tile1x16(_ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ K: Int,
                          _ out: UnsafeMutablePointer<Float>, _ n0: Int) {
        var c0 = Vec()
        var wp = w
        for k in 0..<K {
            c0.addProduct(Vec(repeating: a[k]), loadVec(wp))
            wp += 16
        }
        storeVec(epilogue.apply(c0, channel: n0), out)
    }

    /// Plain scalar reference on unpadded channels-last values.
    public static func reference(input: [Float], pixels: Int, weights: [Float], bias: [Float]?,
                                 inChannels: Int, outChannels: Int, activation: Activation = .none) -> [Float] {
        var out = [Float](repeating: 0, count: pixels * outChannels)
        for p in 0..<pixels {
            for n in 0..<outChannels {
                var s: Float = bias?[n] ?? 0
                for k in 0..<inChannels { s += input[p * inChannels + k] * weights[n * inChannels + k] }
                out[p * outChannels + n] = activation.apply(s, channel: n)
            }
        }
        return out
    }
}
