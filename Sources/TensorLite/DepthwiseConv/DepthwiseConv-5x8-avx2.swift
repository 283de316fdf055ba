#if !GLIMT_AVX512
/// The AVX2 build's row kernel, which the portable build (SSE2, 16 registers too) shares: 5
/// output pixels x 8 channels per step on stride-1 rows. With 16 floats (two ymm each) the 9
/// weights alone take 18 of the 16 registers and the loop spills; 8 channels x 5 pixels fits,
/// and beat both the 16-channel and an 8-channel sliding-window loop on every stride-1 width
/// YuNet has. Stride-2 rows take the sliding window.
extension DepthwiseConv {
    func tiledRow(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>,
        _ W: Int, _ inS: Int, _ output: UnsafeMutablePointer<Float>, _ outS: Int
    ) {
        guard stride == 1 else { return rowKernel16(top, mid, bottom, W, inS, output, outS, StrideTwo.self) }
        // One loop per activation: a branch per output split the loop and spilled its registers.
        switch epilogue.kind {
        case .none: rowKernel5x8(top, mid, bottom, W, inS, output, outS, NoActivation.self)
        case .relu: rowKernel5x8(top, mid, bottom, W, inS, output, outS, ReluActivation.self)
        case .prelu: rowKernel5x8(top, mid, bottom, W, inS, output, outS, PReluActivation.self)
        }
    }

    /// Stride 1: 9 weights, 5 accumulators and one input column in 15 of the 16 ymm registers.
    /// Each input vector is loaded once and feeds the up to three outputs that read it, so a step
    /// has five independent FMA chains where the sliding window had one and spilled (its 9
    /// window + 9 weight registers do not fit). 4 and 6 pixels per step were slower (4: a chain
    /// latency-bound; 6: all 16 registers).
    @inline(__always)
    private func rowKernel5x8<A: VectorActivation>(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
        _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
        _ output: UnsafeMutablePointer<Float>, _ outS: Int, _ kind: A.Type
    ) {
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
                    store(e.apply(a2, bias: bias, slope: slope, as: kind), o + 2 &* outS)
                    store(e.apply(a3, bias: bias, slope: slope, as: kind), o + 3 &* outS)
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
}
#endif
