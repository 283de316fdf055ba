/// 3x3 depthwise convolution, padding 1, stride 1 or 2.
///
/// Each group of 16 channels is one vector; its 9 weights stay in registers while the kernel
/// sweeps the whole map, so each output vector costs 9 loads and 9 FMAs. Interior pixels take a
/// branch-free path; only the one-pixel border checks bounds.
public struct DepthwiseConv: Sendable {
    public let channels: Int
    public let stride: Int
    let packed: AlignedFloats // [9][paddedChannels]
    let epilogue: Epilogue

    /// `weights` is `[channels][3][3]` (ONNX's `[C, 1, 3, 3]`).
    public init(weights: [Float], bias: [Float]?, channels: Int, stride: Int, activation: Activation = .none) {
        precondition(weights.count == channels * 9, "DepthwiseConv: \(weights.count) weights for \(channels) channels")
        precondition(stride == 1 || stride == 2, "DepthwiseConv: stride \(stride) unsupported")
        self.channels = channels
        self.stride = stride
        let padded = roundUp(channels, to: laneCount)
        packed = AlignedFloats(count: 9 * padded)
        for c in 0..<channels {
            for t in 0..<9 { packed.data[t * padded + c] = weights[c * 9 + t] }
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: channels)
    }

    public static func outputSize(_ n: Int, stride: Int) -> Int { (n - 1) / stride + 1 }

    public func outputShape(height: Int, width: Int) -> (height: Int, width: Int) {
        (Self.outputSize(height, stride: stride), Self.outputSize(width, stride: stride))
    }

    public func run(_ input: Tensor, into output: Tensor) {
        let (oh, ow) = outputShape(height: input.height, width: input.width)
        precondition(input.channels == channels && output.channels == channels, "DepthwiseConv: channel mismatch")
        precondition(output.height == oh && output.width == ow, "DepthwiseConv: output must be \(oh)x\(ow)")
        let H = input.height, W = input.width, s = stride
        let inS = input.pixelStride, outS = output.pixelStride
        let rowStride = W * inS
        let padded = inS
        // Rows outermost: the three input rows a output row needs stay in cache while every
        // channel group sweeps them (channel-outer order re-read whole maps larger than L2).
        for oy in 0..<oh {
            let iy = oy * s - 1
            let rowInside = iy >= 0 && iy + 2 < H
            for c0 in Swift.stride(from: 0, to: padded, by: laneCount) {
                let wp = packed.data + c0
                let k0 = loadVec(wp), k1 = loadVec(wp + padded), k2 = loadVec(wp + 2 * padded)
                let k3 = loadVec(wp + 3 * padded), k4 = loadVec(wp + 4 * padded), k5 = loadVec(wp + 5 * padded)
                let k6 = loadVec(wp + 6 * padded), k7 = loadVec(wp + 7 * padded), k8 = loadVec(wp + 8 * padded)
                let inBase = input.data + c0
                let outRow = output.data + oy * ow * outS + c0
                for ox in 0..<ow {
                    let ix = ox * s - 1
                    var acc = Vec()
                    if rowInside && ix >= 0 && ix + 2 < W {
                        let p = inBase + iy * rowStride + ix * inS
                        acc.addProduct(loadVec(p), k0)
                        acc.addProduct(loadVec(p + inS), k1)
                        acc.addProduct(loadVec(p + 2 * inS), k2)
                        let q = p + rowStride
                        acc.addProduct(loadVec(q), k3)
                        acc.addProduct(loadVec(q + inS), k4)
                        acc.addProduct(loadVec(q + 2 * inS), k5)
                        let r = q + rowStride
                        acc.addProduct(loadVec(r), k6)
                        acc.addProduct(loadVec(r + inS), k7)
                        acc.addProduct(loadVec(r + 2 * inS), k8)
                    } else {
                        let taps = (k0, k1, k2, k3, k4, k5, k6, k7, k8)
                        for dy in 0..<3 {
                            let y = iy + dy
                            if y < 0 || y >= H { continue }
                            for dx in 0..<3 {
                                let x = ix + dx
                                if x < 0 || x >= W { continue }
                                acc.addProduct(loadVec(inBase + y * rowStride + x * inS), Self.tap(taps, dy * 3 + dx))
                            }
                        }
                    }
                    storeVec(epilogue.apply(acc, channel: c0), outRow + ox * outS)
                }
            }
        }
    }

    @inline(__always)
    private static func tap(_ t: (Vec, Vec, Vec, Vec, Vec, Vec, Vec, Vec, Vec), _ i: Int) -> Vec {
        switch i {
        case 0: return t.0
        case 1: return t.1
        case 2: return t.2
        case 3: return t.3
        case 4: return t.4
        case 5: return t.5
        case 6: return t.6
        case 7: return t.7
        default: return t.8
        }
    }

    /// Plain scalar reference on unpadded channels-last values.
    public static func reference(input: [Float], height: Int, width: Int, channels: Int, weights: [Float],
                                 bias: [Float]?, stride: Int, activation: Activation = .none) -> [Float] {
        let oh = outputSize(height, stride: stride), ow = outputSize(width, stride: stride)
        var out = [Float](repeating: 0, count: oh * ow * channels)
        for oy in 0..<oh {
            for ox in 0..<ow {
                for c in 0..<channels {
                    var s: Float = bias?[c] ?? 0
                    for dy in 0..<3 {
                        for dx in 0..<3 {
                            let y = oy * stride - 1 + dy, x = ox * stride - 1 + dx
                            if y < 0 || y >= height || x < 0 || x >= width { continue }
                            s += input[(y * width + x) * channels + c] * weights[c * 9 + dy * 3 + dx]
                        }
                    }
                    out[(oy * ow + ox) * channels + c] = activation.apply(s, channel: c)
                }
            }
        }
        return out
    }
}
