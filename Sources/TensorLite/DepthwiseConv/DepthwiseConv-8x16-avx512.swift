#if GLIMT_AVX512
/// The AVX-512 build's row kernels: 8 output pixels x 16 channels per step, and on rows with
/// fewer than 8 interior outputs (SFace's 7x7 maps) the sliding window, two outputs per step at
/// stride 1.
extension DepthwiseConv {
    func tiledRow(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>,
        _ W: Int, _ inS: Int, _ output: UnsafeMutablePointer<Float>, _ outS: Int
    ) {
        guard (W - 2) / stride >= 8 else {
            if stride == 1 { return rowKernel16x2(top, mid, bottom, W, inS, output, outS) }
            return rowKernel16(top, mid, bottom, W, inS, output, outS, StrideTwo.self)
        }
        // One loop per stride and activation, as on AVX2.
        switch (stride == 1, epilogue.kind) {
        case (true, .none): rowKernel8x16(top, mid, bottom, W, inS, output, outS, StrideOne.self, NoActivation.self)
        case (true, .relu): rowKernel8x16(top, mid, bottom, W, inS, output, outS, StrideOne.self, ReluActivation.self)
        case (true, .prelu): rowKernel8x16(top, mid, bottom, W, inS, output, outS, StrideOne.self, PReluActivation.self)
        case (false, .none): rowKernel8x16(top, mid, bottom, W, inS, output, outS, StrideTwo.self, NoActivation.self)
        case (false, .relu): rowKernel8x16(top, mid, bottom, W, inS, output, outS, StrideTwo.self, ReluActivation.self)
        case (false, .prelu): rowKernel8x16(top, mid, bottom, W, inS, output, outS, StrideTwo.self, PReluActivation.self)
        }
    }

    /// Stride 1, two outputs per step: two independent FMA chains from four columns (on AVX2 the
    /// extra columns spill and run slower, so the window there steps one output at a time).
    @inline(__always)
    private func rowKernel16x2(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>,
        _ W: Int, _ inS: Int, _ output: UnsafeMutablePointer<Float>, _ outS: Int
    ) {
        let ow = Self.outputSize(W, stride: 1)
        let padded = roundUp(channels, to: laneCount)
        for c0 in Swift.stride(from: 0, to: padded, by: SIMD16<Float>.scalarCount) {
            let g = Window16(self, channel: c0, top, mid, bottom, W, inS)
            var c0v = g.column(-1), c1v = g.column(0), c2v = g.column(1)
            let outRow = output + c0
            var ox = 0
            while ox &+ 2 <= ow {
                let c3v = g.column(ox &+ 2)
                let acc = g.output(c0v, c1v, c2v), bcc = g.output(c1v, c2v, c3v)
                Self.store(epilogue.apply(acc, bias: g.bias, slope: g.slope), outRow + ox &* outS)
                Self.store(epilogue.apply(bcc, bias: g.bias, slope: g.slope), outRow + (ox &+ 1) &* outS)
                c0v = c2v; c1v = c3v; c2v = g.column(ox &+ 3)
                ox &+= 2
            }
            if ox < ow { Self.store(epilogue.apply(g.output(c0v, c1v, c2v), bias: g.bias, slope: g.slope), outRow + ox &* outS) }
        }
    }

    /// 16 channels x 8 output pixels per step: 9 weights and 8 accumulators in 17 of the 32 zmm
    /// registers. Each input vector is loaded once and feeds every output of the step that reads
    /// it, so a step runs eight independent FMA chains where the sliding window ran one or two
    /// and waited on each FMA's latency. Every output sums its nine taps in the order `reference`
    /// does, as the other kernels do, so all builds compute the same values.
    @inline(__always)
    private func rowKernel8x16<S: DepthwiseStride, A: VectorActivation>(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
        _ output: UnsafeMutablePointer<Float>, _ outS: Int, _: S.Type, _ kind: A.Type
    ) {
        typealias V = Vec
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        let s = S.step
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
                    Self.store(e.apply(acc, bias: bias, slope: slope, as: kind), outRow + ox &* outS)
                }
                // Outputs ox...ox+7, all interior.
                @inline(__always) func eight(_ ox: Int) {
                    var a0 = V(), a1 = V(), a2 = V(), a3 = V(), a4 = V(), a5 = V(), a6 = V(), a7 = V()
                    @inline(__always) func kernelRow(_ row: UnsafePointer<Float>, _ ka: V, _ kb: V, _ kc: V) {
                        let p = row + (ox &* s &- 1) &* inS
                        @inline(__always) func x(_ c: Int) -> V { load(p + c &* inS) }
                        // One weight into all eight outputs: eight independent FMAs in a row. Output
                        // i reads columns s * i ... s * i + 2 of the step; with the stride a constant,
                        // a column several outputs read is one load.
                        @inline(__always) func tap(_ k: V, _ j: Int) {
                            a0.accumulate(x(j), k); a1.accumulate(x(s &+ j), k)
                            a2.accumulate(x(2 &* s &+ j), k); a3.accumulate(x(3 &* s &+ j), k)
                            a4.accumulate(x(4 &* s &+ j), k); a5.accumulate(x(5 &* s &+ j), k)
                            a6.accumulate(x(6 &* s &+ j), k); a7.accumulate(x(7 &* s &+ j), k)
                        }
                        tap(ka, 0); tap(kb, 1); tap(kc, 2)
                    }
                    kernelRow(t, k0, k1, k2); kernelRow(m, k3, k4, k5); kernelRow(b, k6, k7, k8)
                    let o = outRow + ox &* outS
                    Self.store(e.apply(a0, bias: bias, slope: slope, as: kind), o)
                    Self.store(e.apply(a1, bias: bias, slope: slope, as: kind), o + outS)
                    Self.store(e.apply(a2, bias: bias, slope: slope, as: kind), o + 2 &* outS)
                    Self.store(e.apply(a3, bias: bias, slope: slope, as: kind), o + 3 &* outS)
                    Self.store(e.apply(a4, bias: bias, slope: slope, as: kind), o + 4 &* outS)
                    Self.store(e.apply(a5, bias: bias, slope: slope, as: kind), o + 5 &* outS)
                    Self.store(e.apply(a6, bias: bias, slope: slope, as: kind), o + 6 &* outS)
                    Self.store(e.apply(a7, bias: bias, slope: slope, as: kind), o + 7 &* outS)
                }
                var ox = x0
                if ox == 0 { one(0); ox = 1 }
                let end = min(x1, last &+ 1)  // interior outputs of the strip: ox..<end
                while ox &+ 8 <= end {
                    eight(ox)
                    ox &+= 8
                }
                // The last interior outputs as one more step ending at end - 1 (it recomputes, with
                // the same values, some outputs before them); rows with fewer than 8 interior
                // outputs take the window, so the step starts at 1 or later.
                if ox < end { eight(end &- 8) }
                for o in max(ox, end)..<x1 { one(o) }
            }
        }
    }
}
#endif
