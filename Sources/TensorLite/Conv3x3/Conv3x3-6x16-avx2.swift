#if !GLIMT_AVX512
/// The AVX2 build's stem tile, which the portable build (16 registers too) shares.
extension Conv3x3 {
    /// Output pixels per RGB tile: 6 accumulators of 16 channels are 12 of AVX2's 16 ymm registers.
    static let pixelTile = 6

    /// 3 input channels (every stem): up to `pixelTile` output pixels x 16 channels from `n0`.
    /// The 27 taps are a compile-time loop, so it unrolls with no index checks; each tap is one
    /// weight load for `pixelTile` FMAs. Past `px` pixels the tile computes from the row's slack
    /// and stores nothing.
    @inline(__always)
    func tileRGB(
        _ r0: UnsafeMutablePointer<Float>, _ r1: UnsafeMutablePointer<Float>, _ r2: UnsafeMutablePointer<Float>,
        _ ox: Int, _ px: Int, _ n0: Int, _ out: UnsafeMutablePointer<Float>, _ outStride: Int,
        _ weights: UnsafePointer<Float>
    ) {
        let step = stride &* 3
        let w0 = weights + n0
        let po = paddedOut
        var a0 = Vec(), a1 = Vec(), a2 = Vec(), a3 = Vec(), a4 = Vec(), a5 = Vec()
        @inline(__always) func kernelRow(_ row: UnsafeMutablePointer<Float>, _ dy: Int) {
            let r = UnsafePointer(row) + ox &* step
            let w = w0 + dy &* 9 &* po
            for j in 0..<9 {
                let wv = loadVec(w + j &* po)
                a0.accumulate(Vec(repeating: r[j]), wv); a1.accumulate(Vec(repeating: r[step &+ j]), wv)
                a2.accumulate(Vec(repeating: r[2 &* step &+ j]), wv); a3.accumulate(Vec(repeating: r[3 &* step &+ j]), wv)
                a4.accumulate(Vec(repeating: r[4 &* step &+ j]), wv); a5.accumulate(Vec(repeating: r[5 &* step &+ j]), wv)
            }
        }
        kernelRow(r0, 0); kernelRow(r1, 1); kernelRow(r2, 2)
        let (bias, slope) = epilogue.vectors(channel: n0)
        let o = out + (ox &* outStride &+ n0)
        let e = epilogue
        // Whole tiles store without a check per pixel; only a row's last tile is partial.
        if px == 6 {
            storeVec(e.apply(a0, bias: bias, slope: slope), o); storeVec(e.apply(a1, bias: bias, slope: slope), o + outStride)
            storeVec(e.apply(a2, bias: bias, slope: slope), o + 2 &* outStride); storeVec(e.apply(a3, bias: bias, slope: slope), o + 3 &* outStride)
            storeVec(e.apply(a4, bias: bias, slope: slope), o + 4 &* outStride); storeVec(e.apply(a5, bias: bias, slope: slope), o + 5 &* outStride)
            return
        }
        let all = [a0, a1, a2, a3, a4, a5]
        for p in 0..<px { storeVec(e.apply(all[p], bias: bias, slope: slope), o + p &* outStride) }
    }
}
#endif
