/// 3x3 depthwise convolution, padding 1, stride 1 or 2.
///
/// Each group of 16 channels is one vector; its 9 weights stay in registers while the kernel
/// sweeps a row, and a sliding window of three input columns means each output vector costs 9
/// FMAs but only 3 loads (6 at stride 2). AVX2 builds take stride-1 rows 8 channels x 5 pixels
/// at a time instead (`rowKernel8x5`). Zero rows and columns stand in for the padding.
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

    /// Per output pixel.
    public var flops: Int { 18 * channels }

    public static func outputSize(_ n: Int, stride: Int) -> Int { (n - 1) / stride + 1 }

    public func outputShape(height: Int, width: Int) -> (height: Int, width: Int) {
        (Self.outputSize(height, stride: stride), Self.outputSize(width, stride: stride))
    }

    public func run(_ input: Tensor, into output: Tensor) {
        let (oh, ow) = outputShape(height: input.height, width: input.width)
        precondition(input.channels == channels && output.channels == channels, "DepthwiseConv: channel mismatch")
        precondition(output.height == oh && output.width == ow, "DepthwiseConv: output must be \(oh)x\(ow)")
        run(input, rows: 0..<oh, into: output.data, outputStride: output.pixelStride)
    }

    /// Zeros for the rows above and below a map, shared by every call: never written.
    private static let zeroRows = AlignedFloats(count: 1 << 16)

    /// Output rows `rows` only, written to `output` from its start (a band of the output map,
    /// pixels `outputStride` floats apart).
    func run(_ input: Tensor, rows: Range<Int>, into output: UnsafeMutablePointer<Float>, outputStride: Int) {
        precondition(input.channels == channels && outputStride >= roundUp(channels, to: laneCount), "DepthwiseConv: channel mismatch")
        let H = input.height, W = input.width, s = stride
        let ow = Self.outputSize(W, stride: s)
        let rowStride = W * input.pixelStride
        // Rows above and below the map read from a zero row, so the inner loop has no row checks.
        let zeroRow = rowStride <= Self.zeroRows.count ? Self.zeroRows : AlignedFloats(count: rowStride)
        // Rows outermost: the three input rows an output row needs stay in cache while every
        // channel group sweeps them (channel-outer order re-read whole maps larger than L2).
        for oy in rows {
            let iy = oy * s - 1
            let top = iy >= 0 ? input.data + iy * rowStride : zeroRow.data
            let mid = input.data + (iy + 1) * rowStride
            let bot = iy + 2 < H ? input.data + (iy + 2) * rowStride : zeroRow.data
            runRow(top: top, mid: mid, bottom: bot, width: W, inputStride: input.pixelStride,
                   output: output + (oy - rows.lowerBound) * ow * outputStride, outputStride: outputStride)
        }
    }

    /// One output row from the three input rows around it (`width` pixels each, `inputStride`
    /// floats apart; a zero row stands in for one outside the map).
    func runRow(top: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, bottom: UnsafeMutablePointer<Float>,
                width W: Int, inputStride inS: Int, output: UnsafeMutablePointer<Float>, outputStride outS: Int) {
#if GLIMT_AVX512
        // Rows with fewer than 8 interior outputs (SFace's 7x7 maps) keep the sliding window.
        guard (W - 2) / stride >= 8 else { return rowKernel16(top, mid, bottom, W, inS, output, outS) }
        // One loop per activation, as on AVX2.
        switch epilogue.kind {
        case .none: rowKernel16x8(top, mid, bottom, W, inS, output, outS, NoActivation.self)
        case .relu: rowKernel16x8(top, mid, bottom, W, inS, output, outS, ReluActivation.self)
        case .prelu: rowKernel16x8(top, mid, bottom, W, inS, output, outS, PReluActivation.self)
        }
#else
        // AVX2: with 16 floats (two ymm each) the 9 weights alone take 18 of the 16 registers and
        // the loop spills; 8 channels x 5 pixels fits, and beat both the 16-channel and an
        // 8-channel sliding-window loop on every stride-1 width YuNet has.
        if stride == 1 {
            rowKernel8x5(top, mid, bottom, W, inS, output, outS)
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
                // extra columns spill and run slower, so one at a time there).
                var ox = 0
                while ox &+ 2 <= ow {
                    let c3v = column(ox &+ 2)
                    var acc = c0v.0 * k0, bcc = c1v.0 * k0
                    acc.accumulate(c1v.0, k1); bcc.accumulate(c2v.0, k1)
                    acc.accumulate(c2v.0, k2); bcc.accumulate(c3v.0, k2)
                    acc.accumulate(c0v.1, k3); bcc.accumulate(c1v.1, k3)
                    acc.accumulate(c1v.1, k4); bcc.accumulate(c2v.1, k4)
                    acc.accumulate(c2v.1, k5); bcc.accumulate(c3v.1, k5)
                    acc.accumulate(c0v.2, k6); bcc.accumulate(c1v.2, k6)
                    acc.accumulate(c1v.2, k7); bcc.accumulate(c2v.2, k7)
                    acc.accumulate(c2v.2, k8); bcc.accumulate(c3v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    store(epilogue.apply(bcc, bias: bias, slope: slope), outRow + (ox &+ 1) &* outS)
                    c0v = c2v; c1v = c3v; c2v = column(ox &+ 3)
                    ox &+= 2
                }
                if ox < ow {
                    var acc = c0v.0 * k0
                    acc.accumulate(c1v.0, k1); acc.accumulate(c2v.0, k2)
                    acc.accumulate(c0v.1, k3); acc.accumulate(c1v.1, k4); acc.accumulate(c2v.1, k5)
                    acc.accumulate(c0v.2, k6); acc.accumulate(c1v.2, k7); acc.accumulate(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                }
#else
                for ox in 0..<ow {
                    var acc = c0v.0 * k0
                    acc.accumulate(c1v.0, k1); acc.accumulate(c2v.0, k2)
                    acc.accumulate(c0v.1, k3); acc.accumulate(c1v.1, k4); acc.accumulate(c2v.1, k5)
                    acc.accumulate(c0v.2, k6); acc.accumulate(c1v.2, k7); acc.accumulate(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    c0v = c1v; c1v = c2v; c2v = column(ox &+ 2)
                }
#endif
            } else {
                for ox in 0..<ow {
                    var acc = c0v.0 * k0
                    acc.accumulate(c1v.0, k1); acc.accumulate(c2v.0, k2)
                    acc.accumulate(c0v.1, k3); acc.accumulate(c1v.1, k4); acc.accumulate(c2v.1, k5)
                    acc.accumulate(c0v.2, k6); acc.accumulate(c1v.2, k7); acc.accumulate(c2v.2, k8)
                    store(epilogue.apply(acc, bias: bias, slope: slope), outRow + ox &* outS)
                    let next = (ox &+ 1) &* s &- 1
                    c0v = c2v; c1v = column(next &+ 1); c2v = column(next &+ 2)
                }
            }
        }
    }

#if GLIMT_AVX512
    /// Stride 1 or 2, 16 channels x 8 output pixels per step: 9 weights and 8 accumulators in 17
    /// of the 32 zmm registers. Each input vector is loaded once and feeds every output of the
    /// step that reads it, so a step runs eight independent FMA chains where the sliding window
    /// ran one or two and waited on each FMA's latency. Every output sums its nine taps in the
    /// order `reference` does, as the other kernels do, so all builds compute the same values.
    @inline(__always)
    private func rowKernel16x8<A: VectorActivation>(_ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
                                                    _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
                                                    _ output: UnsafeMutablePointer<Float>, _ outS: Int, _ kind: A.Type) {
        typealias V = Vec
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self) }
        let s = stride
        let ow = Self.outputSize(W, stride: s)
        let padded = roundUp(channels, to: laneCount)
        let e = epilogue
        // Outputs whose three columns are all inside the row: 1...last.
        let last = (W &- 2) / s
        // Strips of outputs, each swept by every channel group while the columns it reads stay
        // in cache, as on AVX2.
        let strip = 8 * max(2, 2048 / (padded * s) / 8)
        var x1 = 0
        while x1 < ow {
            let x0 = x1
            x1 = min(ow, x0 == 0 ? strip &+ 1 : x0 &+ strip)
            for c0 in Swift.stride(from: 0, to: padded, by: V.scalarCount) {
                let wp = UnsafePointer(packed.data) + c0
                let k0 = load(wp), k1 = load(wp + padded), k2 = load(wp + 2 * padded)
                let k3 = load(wp + 3 * padded), k4 = load(wp + 4 * padded), k5 = load(wp + 5 * padded)
                let k6 = load(wp + 6 * padded), k7 = load(wp + 7 * padded), k8 = load(wp + 8 * padded)
                let bias = load(e.bias.data + c0), slope = load(e.slopes.data + c0)
                let t = UnsafePointer(top) + c0, m = UnsafePointer(mid) + c0, b = UnsafePointer(bottom) + c0
                let outRow = output + c0
                // One output at an edge: columns outside the row are zeros.
                @inline(__always) func one(_ ox: Int) {
                    @inline(__always) func col(_ r: UnsafePointer<Float>, _ x: Int) -> V { x >= 0 && x < W ? load(r + x &* inS) : V() }
                    let x = ox &* s
                    var acc = V()
                    acc.accumulate(col(t, x &- 1), k0); acc.accumulate(col(t, x), k1); acc.accumulate(col(t, x &+ 1), k2)
                    acc.accumulate(col(m, x &- 1), k3); acc.accumulate(col(m, x), k4); acc.accumulate(col(m, x &+ 1), k5)
                    acc.accumulate(col(b, x &- 1), k6); acc.accumulate(col(b, x), k7); acc.accumulate(col(b, x &+ 1), k8)
                    store(e.apply(acc, bias: bias, slope: slope, as: kind), outRow + ox &* outS)
                }
                // Outputs ox...ox+7, all interior.
                @inline(__always) func eight(_ ox: Int) {
                    var a0 = V(), a1 = V(), a2 = V(), a3 = V(), a4 = V(), a5 = V(), a6 = V(), a7 = V()
                    // Column c of the step feeds output i with tap c - s * i (0, 1 or 2).
                    @inline(__always) func kernelRow(_ row: UnsafePointer<Float>, _ ka: V, _ kb: V, _ kc: V) {
                        let p = row + (ox &* s &- 1) &* inS
                        @inline(__always) func x(_ c: Int) -> V { load(p + c &* inS) }
                        if s == 1 {
                            var v = x(0)
                            a0.accumulate(v, ka)
                            v = x(1); a0.accumulate(v, kb); a1.accumulate(v, ka)
                            v = x(2); a0.accumulate(v, kc); a1.accumulate(v, kb); a2.accumulate(v, ka)
                            v = x(3); a1.accumulate(v, kc); a2.accumulate(v, kb); a3.accumulate(v, ka)
                            v = x(4); a2.accumulate(v, kc); a3.accumulate(v, kb); a4.accumulate(v, ka)
                            v = x(5); a3.accumulate(v, kc); a4.accumulate(v, kb); a5.accumulate(v, ka)
                            v = x(6); a4.accumulate(v, kc); a5.accumulate(v, kb); a6.accumulate(v, ka)
                            v = x(7); a5.accumulate(v, kc); a6.accumulate(v, kb); a7.accumulate(v, ka)
                            v = x(8); a6.accumulate(v, kc); a7.accumulate(v, kb)
                            v = x(9); a7.accumulate(v, kc)
                        } else {
                            var v = x(0)
                            a0.accumulate(v, ka)
                            v = x(1); a0.accumulate(v, kb)
                            v = x(2); a0.accumulate(v, kc); a1.accumulate(v, ka)
                            v = x(3); a1.accumulate(v, kb)
                            v = x(4); a1.accumulate(v, kc); a2.accumulate(v, ka)
                            v = x(5); a2.accumulate(v, kb)
                            v = x(6); a2.accumulate(v, kc); a3.accumulate(v, ka)
                            v = x(7); a3.accumulate(v, kb)
                            v = x(8); a3.accumulate(v, kc); a4.accumulate(v, ka)
                            v = x(9); a4.accumulate(v, kb)
                            v = x(10); a4.accumulate(v, kc); a5.accumulate(v, ka)
                            v = x(11); a5.accumulate(v, kb)
                            v = x(12); a5.accumulate(v, kc); a6.accumulate(v, ka)
                            v = x(13); a6.accumulate(v, kb)
                            v = x(14); a6.accumulate(v, kc); a7.accumulate(v, ka)
                            v = x(15); a7.accumulate(v, kb)
                            v = x(16); a7.accumulate(v, kc)
                        }
                    }
                    kernelRow(t, k0, k1, k2); kernelRow(m, k3, k4, k5); kernelRow(b, k6, k7, k8)
                    let o = outRow + ox &* outS
                    store(e.apply(a0, bias: bias, slope: slope, as: kind), o)
                    store(e.apply(a1, bias: bias, slope: slope, as: kind), o + outS)
                    store(e.apply(a2, bias: bias, slope: slope, as: kind), o + 2 &* outS)
                    store(e.apply(a3, bias: bias, slope: slope, as: kind), o + 3 &* outS)
                    store(e.apply(a4, bias: bias, slope: slope, as: kind), o + 4 &* outS)
                    store(e.apply(a5, bias: bias, slope: slope, as: kind), o + 5 &* outS)
                    store(e.apply(a6, bias: bias, slope: slope, as: kind), o + 6 &* outS)
                    store(e.apply(a7, bias: bias, slope: slope, as: kind), o + 7 &* outS)
                }
                var ox = x0
                if ox == 0 { one(0); ox = 1 }
                let end = min(x1, last &+ 1)  // interior outputs of the strip: ox..<end
                while ox &+ 8 <= end {
                    eight(ox)
                    ox &+= 8
                }
                // The last interior outputs as one more step ending at end - 1 (it recomputes, with
                // the same values, some outputs before them); the caller sends rows with fewer
                // than 8 interior outputs elsewhere, so the step starts at 1 or later.
                if ox < end { eight(end &- 8) }
                for o in max(ox, end)..<x1 { one(o) }
            }
        }
    }
#endif

#if !GLIMT_AVX512
    /// Stride 1, 8 channels x 5 output pixels per step: 9 weights, 5 accumulators and one input
    /// column in 15 of the 16 ymm registers. Each input vector is loaded once and feeds the up to
    /// three outputs that read it, so a step has five independent FMA chains where the sliding
    /// window had one and spilled (its 9 window + 9 weight registers do not fit). 4 and 6 pixels
    /// per step were slower (4: a chain latency-bound; 6: all 16 registers).
    @inline(__always)
    private func rowKernel8x5(_ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
                              _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
                              _ output: UnsafeMutablePointer<Float>, _ outS: Int) {
        // One loop per activation: a branch per output split the loop and spilled its registers.
        switch epilogue.kind {
        case .none: rowKernel8x5(top, mid, bottom, W, inS, output, outS, NoActivation.self)
        case .relu: rowKernel8x5(top, mid, bottom, W, inS, output, outS, ReluActivation.self)
        case .prelu: rowKernel8x5(top, mid, bottom, W, inS, output, outS, PReluActivation.self)
        }
    }

    @inline(__always)
    private func rowKernel8x5<A: VectorActivation>(_ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
                                                       _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
                                                       _ output: UnsafeMutablePointer<Float>, _ outS: Int, _ kind: A.Type) {
        typealias V = SIMD8<Float>
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self) }
        let padded = roundUp(channels, to: laneCount)
        let e = epilogue
        // Strips of columns, each swept by every channel group while its three rows stay in L1
        // (whole rows of 64 channels do not fit). Strips start after a multiple of 5 pixels so no
        // step straddles two.
        let strip = 5 * max(3, 2048 / padded / 5)
        var x1 = 0
        while x1 < W {
            let x0 = x1
            x1 = min(W, x0 == 0 ? strip &+ 1 : x0 &+ strip)
            for c0 in Swift.stride(from: 0, to: padded, by: V.scalarCount) {
                let wp = UnsafePointer(packed.data) + c0
                let k0 = load(wp), k1 = load(wp + padded), k2 = load(wp + 2 * padded)
                let k3 = load(wp + 3 * padded), k4 = load(wp + 4 * padded), k5 = load(wp + 5 * padded)
                let k6 = load(wp + 6 * padded), k7 = load(wp + 7 * padded), k8 = load(wp + 8 * padded)
                let t = UnsafePointer(top) + c0, m = UnsafePointer(mid) + c0, b = UnsafePointer(bottom) + c0
                let outRow = output + c0
                // One output at an edge: columns outside the row are zeros.
                @inline(__always) func one(_ ox: Int) {
                    @inline(__always) func col(_ r: UnsafePointer<Float>, _ x: Int) -> V { x >= 0 && x < W ? load(r + x &* inS) : V() }
                    var acc = V()
                    acc.accumulate(col(t, ox &- 1), k0); acc.accumulate(col(t, ox), k1); acc.accumulate(col(t, ox &+ 1), k2)
                    acc.accumulate(col(m, ox &- 1), k3); acc.accumulate(col(m, ox), k4); acc.accumulate(col(m, ox &+ 1), k5)
                    acc.accumulate(col(b, ox &- 1), k6); acc.accumulate(col(b, ox), k7); acc.accumulate(col(b, ox &+ 1), k8)
                    store(e.apply(acc, bias: load(e.bias.data + c0), slope: load(e.slopes.data + c0), as: kind), outRow + ox &* outS)
                }
                // Outputs ox...ox+4, from columns ox-1...ox+5, which must all be inside the row.
                @inline(__always) func five(_ ox: Int) {
                    var a0 = V(), a1 = V(), a2 = V(), a3 = V(), a4 = V()
                    @inline(__always) func kernelRow(_ row: UnsafePointer<Float>, _ ka: V, _ kb: V, _ kc: V) {
                        let p = row + (ox &- 1) &* inS
                        var x = load(p)
                        a0.accumulate(x, ka)
                        x = load(p + inS)
                        a0.accumulate(x, kb); a1.accumulate(x, ka)
                        x = load(p + 2 &* inS)
                        a0.accumulate(x, kc); a1.accumulate(x, kb); a2.accumulate(x, ka)
                        x = load(p + 3 &* inS)
                        a1.accumulate(x, kc); a2.accumulate(x, kb); a3.accumulate(x, ka)
                        x = load(p + 4 &* inS)
                        a2.accumulate(x, kc); a3.accumulate(x, kb); a4.accumulate(x, ka)
                        x = load(p + 5 &* inS)
                        a3.accumulate(x, kc); a4.accumulate(x, kb)
                        x = load(p + 6 &* inS)
                        a4.accumulate(x, kc)
                    }
                    kernelRow(t, k0, k1, k2); kernelRow(m, k3, k4, k5); kernelRow(b, k6, k7, k8)
                    let bias = load(e.bias.data + c0), slope = load(e.slopes.data + c0)
                    let o = outRow + ox &* outS
                    store(e.apply(a0, bias: bias, slope: slope, as: kind), o); store(e.apply(a1, bias: bias, slope: slope, as: kind), o + outS)
                    store(e.apply(a2, bias: bias, slope: slope, as: kind), o + 2 &* outS); store(e.apply(a3, bias: bias, slope: slope, as: kind), o + 3 &* outS)
                    store(e.apply(a4, bias: bias, slope: slope, as: kind), o + 4 &* outS)
                }
                if W < 7 {
                    for ox in x0..<x1 { one(ox) }
                    continue
                }
                var ox = x0
                if ox == 0 { one(0); ox = 1 }
                let end = x1 == W ? W &- 1 : x1  // interior outputs of the strip: ox..<end
                while ox &+ 5 <= end {
                    five(ox)
                    ox &+= 5
                }
                // The last interior outputs as one more step ending at end - 1 (it recomputes, with
                // the same values, some outputs before them): cheaper than one at a time.
                if ox < end { five(end &- 5) }
                if x1 == W { one(W &- 1) }
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
