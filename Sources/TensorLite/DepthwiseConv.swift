/// 3x3 depthwise convolution, padding 1, stride 1 or 2.
///
/// Each group of 16 channels is one vector (8 on wide stride-1 rows in AVX2 builds); its 9 weights stay in registers while the kernel
/// sweeps a row, and a sliding window of three input columns means each output vector costs 9
/// FMAs but only 3 loads (6 at stride 2). Zero rows and columns stand in for the padding.
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
        let rowStride = W * input.pixelStride
        // Rows above and below the map read from a zero row, so the inner loop has no row checks.
        let zeroRow = AlignedFloats(count: rowStride)
        // Rows outermost: the three input rows an output row needs stay in cache while every
        // channel group sweeps them (channel-outer order re-read whole maps larger than L2).
        for oy in 0..<oh {
            let iy = oy * s - 1
            let top = iy >= 0 ? input.data + iy * rowStride : zeroRow.data
            let mid = input.data + (iy + 1) * rowStride
            let bot = iy + 2 < H ? input.data + (iy + 2) * rowStride : zeroRow.data
            runRow(top: top, mid: mid, bottom: bot, width: W, inputStride: input.pixelStride,
                   output: output.data + oy * ow * output.pixelStride, outputStride: output.pixelStride)
        }
    }

    /// One output row from the three input rows around it (`width` pixels each, `inputStride`
    /// floats apart; a zero row stands in for one outside the map).
    func runRow(top: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, bottom: UnsafeMutablePointer<Float>,
                width W: Int, inputStride inS: Int, output: UnsafeMutablePointer<Float>, outputStride outS: Int) {
#if GLIMT_AVX512
        rowKernel16(top, mid, bottom, W, inS, output, outS)
#else
        // AVX2: with 16 floats (two ymm each) the 9 weights alone take 18 of the 16 registers and
        // the loop spills; 8 at a time fits, and wins on stride-1 rows 28 pixels wide or more
        // (112x112x32: 0.155 -> 0.111 ms), but lost on 14-pixel and stride-2 rows, where the
        // per-group set-up is paid twice as often for few pixels.
        if stride == 1 && W >= 24 {
            rowKernel8(top, mid, bottom, W, inS, output, outS)
        } else {
            rowKernel16(top, mid, bottom, W, inS, output, outS)
        }
#endif
    }

    /// 16 channels per step (one zmm register; two ymm).
    @inline(__always)
    private func rowKernel16(_ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
                                    _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
                                    _ output: UnsafeMutablePointer<Float>, _ outS: Int) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD16<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self) }
        @inline(__always) func store(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self) }
        let s = stride
        let ow = Self.outputSize(W, stride: s)
        let padded = roundUp(channels, to: laneCount)
        for c0 in Swift.stride(from: 0, to: padded, by: SIMD16<Float>.scalarCount) {
            let wp = UnsafePointer(packed.data) + c0
            let k0 = load(wp), k1 = load(wp + padded), k2 = load(wp + 2 * padded)
            let k3 = load(wp + 3 * padded), k4 = load(wp + 4 * padded), k5 = load(wp + 5 * padded)
            let k6 = load(wp + 6 * padded), k7 = load(wp + 7 * padded), k8 = load(wp + 8 * padded)
            let bias = load(epilogue.bias.data + c0), slope = load(epilogue.slopes.data + c0)
            let t = UnsafePointer(top) + c0, m = UnsafePointer(mid) + c0, b = UnsafePointer(bottom) + c0
            // A sliding window of three columns: each step loads only the new columns.
            @inline(__always) func column(_ x: Int) -> (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>) {
                guard x >= 0 && x < W else { return (SIMD16<Float>(), SIMD16<Float>(), SIMD16<Float>()) }
                let o = x &* inS
                return (load(t + o), load(m + o), load(b + o))
            }
            var c0v = column(-1), c1v = column(0), c2v = column(1)
            let outRow = output + c0
            // The stride test is outside the loop: inside, it cost a branch and moves per output.
            if s == 1 {
#if GLIMT_AVX512
                // Two outputs per step: two independent FMA chains, four columns loaded (with AVX2 the
                // extra columns spill: 320x320x16 0.82 -> 1.27 ms, so one at a time there).
                var ox = 0
                while ox &+ 2 <= ow {
                    let c3v = column(ox &+ 2)
                    var acc = c0v.0 * k0, bcc = c1v.0 * k0
                    acc.addProduct(c1v.0, k1); bcc.addProduct(c2v.0, k1)
                    acc.addProduct(c2v.0, k2); bcc.addProduct(c3v.0, k2)
                    acc.addProduct(c0v.1, k3); bcc.addProduct(c1v.1, k3)
                    acc.addProduct(c1v.1, k4); bcc.addProduct(c2v.1, k4)
                    acc.addProduct(c2v.1, k5); bcc.addProduct(c3v.1, k5)
                    acc.addProduct(c0v.2, k6); bcc.addProduct(c1v.2, k6)
                    acc.addProduct(c1v.2, k7); bcc.addProduct(c2v.2, k7)
                    acc.addProduct(c2v.2, k8); bcc.addProduct(c3v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    store(epilogue.apply(bcc, bias: bias, slope: slope), outRow + (ox &+ 1) &* outS)
                    c0v = c2v; c1v = c3v; c2v = column(ox &+ 3)
                    ox &+= 2
                }
                if ox < ow {
                    var acc = c0v.0 * k0
                    acc.addProduct(c1v.0, k1); acc.addProduct(c2v.0, k2)
                    acc.addProduct(c0v.1, k3); acc.addProduct(c1v.1, k4); acc.addProduct(c2v.1, k5)
                    acc.addProduct(c0v.2, k6); acc.addProduct(c1v.2, k7); acc.addProduct(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                }
#else
                for ox in 0..<ow {
                    var acc = c0v.0 * k0
                    acc.addProduct(c1v.0, k1); acc.addProduct(c2v.0, k2)
                    acc.addProduct(c0v.1, k3); acc.addProduct(c1v.1, k4); acc.addProduct(c2v.1, k5)
                    acc.addProduct(c0v.2, k6); acc.addProduct(c1v.2, k7); acc.addProduct(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    c0v = c1v; c1v = c2v; c2v = column(ox &+ 2)
                }
#endif
            } else {
                for ox in 0..<ow {
                    var acc = c0v.0 * k0
                    acc.addProduct(c1v.0, k1); acc.addProduct(c2v.0, k2)
                    acc.addProduct(c0v.1, k3); acc.addProduct(c1v.1, k4); acc.addProduct(c2v.1, k5)
                    acc.addProduct(c0v.2, k6); acc.addProduct(c1v.2, k7); acc.addProduct(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    let next = (ox &+ 1) &* s &- 1
                    c0v = c2v; c1v = column(next &+ 1); c2v = column(next &+ 2)
                }
            }
        }
    }

#if !GLIMT_AVX512
    /// The same for 8 channels per step (one ymm register): written out, as a generic version is
    /// not specialised (50x slower).
    @inline(__always)
    private func rowKernel8(_ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
                                    _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
                                    _ output: UnsafeMutablePointer<Float>, _ outS: Int) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self) }
        @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self) }
        let s = stride
        let ow = Self.outputSize(W, stride: s)
        let padded = roundUp(channels, to: laneCount)
        for c0 in Swift.stride(from: 0, to: padded, by: SIMD8<Float>.scalarCount) {
            let wp = UnsafePointer(packed.data) + c0
            let k0 = load(wp), k1 = load(wp + padded), k2 = load(wp + 2 * padded)
            let k3 = load(wp + 3 * padded), k4 = load(wp + 4 * padded), k5 = load(wp + 5 * padded)
            let k6 = load(wp + 6 * padded), k7 = load(wp + 7 * padded), k8 = load(wp + 8 * padded)
            let bias = load(epilogue.bias.data + c0), slope = load(epilogue.slopes.data + c0)
            let t = UnsafePointer(top) + c0, m = UnsafePointer(mid) + c0, b = UnsafePointer(bottom) + c0
            // A sliding window of three columns: each step loads only the new columns.
            @inline(__always) func column(_ x: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
                guard x >= 0 && x < W else { return (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>()) }
                let o = x &* inS
                return (load(t + o), load(m + o), load(b + o))
            }
            var c0v = column(-1), c1v = column(0), c2v = column(1)
            let outRow = output + c0
            // The stride test is outside the loop: inside, it cost a branch and moves per output.
            if s == 1 {
                for ox in 0..<ow {
                    var acc = c0v.0 * k0
                    acc.addProduct(c1v.0, k1); acc.addProduct(c2v.0, k2)
                    acc.addProduct(c0v.1, k3); acc.addProduct(c1v.1, k4); acc.addProduct(c2v.1, k5)
                    acc.addProduct(c0v.2, k6); acc.addProduct(c1v.2, k7); acc.addProduct(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    c0v = c1v; c1v = c2v; c2v = column(ox &+ 2)
                }
            } else {
                for ox in 0..<ow {
                    var acc = c0v.0 * k0
                    acc.addProduct(c1v.0, k1); acc.addProduct(c2v.0, k2)
                    acc.addProduct(c0v.1, k3); acc.addProduct(c1v.1, k4); acc.addProduct(c2v.1, k5)
                    acc.addProduct(c0v.2, k6); acc.addProduct(c1v.2, k7); acc.addProduct(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    let next = (ox &+ 1) &* s &- 1
                    c0v = c2v; c1v = column(next &+ 1); c2v = column(next &+ 2)
                }
            }
        }
    }
#endif

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
