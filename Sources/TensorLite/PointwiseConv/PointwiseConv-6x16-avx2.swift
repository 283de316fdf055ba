#if !GLIMT_AVX512
import CPrefetch

/// The AVX2 build's tile, which the portable build shares (16 registers of 8 floats; a `Vec` takes
/// two): 6 pixels x 16 channels, 12 registers of accumulators, 2 of weights and 1 broadcast, over
/// 16-wide panels: the tile reads its panel front to back, so weights not in cache stream in
/// faster than from a slice of a wider panel.
extension PointwiseConv {
    static let panel = 16

    @inline(__always)
    func gemm(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        let K = inChannels
        let panelSize = laneCount * K
        var w = UnsafePointer(packed.data)
        var n0 = 0
        // Panels go by in groups of four (64 channels) while the tile's 6 input rows stay in L1.
        // A full group's last few pixels go one at a time across its 64 channels, 8 independent
        // registers of accumulators, cheaper than a mostly idle 6-pixel tile per panel.
        var left = fullPanels
        while left > 0 {
            let group = min(4, left)
            let tiled = group == 4 ? pixels / 6 * 6 : pixels
            // The first step over a group asks for the next group's weights, one cache line (a
            // row of a 16-wide panel) a step: they stream in from memory while this group's
            // tiles run, where otherwise each group's first tile waits for its own.
            let following = min(4, left - group)  // panels in the next group
            var p = 0
            while p < tiled {
                for j in 0..<group {
                    tile6x16(
                        input + p * inputStride, inputStride, min(6, pixels - p), w + j * panelSize, K,
                        output + p * outputStride + n0 + j * laneCount, outputStride, n0 + j * laneCount,
                        prefetching: p == 0 && j < following ? w + (group + j) * panelSize : nil)
                }
                p += 6
            }
            while p < pixels {
                tile1x64(input + p * inputStride, w, panelSize, K, output + p * outputStride + n0, n0)
                p += 1
            }
            w += group * panelSize
            n0 += group * laneCount
            left -= group
        }
    }

    /// Past `rows`, the tile repeats the last pixel, so a pixel tail costs a whole tile but needs no
    /// code of its own.
    @inline(__always)
    private func tile6x16(
        _ a: UnsafePointer<Float>, _ aStride: Int, _ rows: Int, _ w: UnsafePointer<Float>, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int, prefetching ahead: UnsafePointer<Float>?
    ) {
        let r1 = min(1, rows - 1), r2 = min(2, rows - 1), r3 = min(3, rows - 1), r4 = min(4, rows - 1), r5 = rows - 1
        let a0 = a, a1 = a + r1 * aStride, a2 = a + r2 * aStride, a3 = a + r3 * aStride, a4 = a + r4 * aStride, a5 = a + r5 * aStride
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec(), c4 = Vec(), c5 = Vec()
        var wp = w
        for k in 0..<K {
            if let ahead { glimt_prefetch(ahead + 16 * k) }
            let wv = loadVec(wp)
            c0.accumulate(Vec(repeating: a0[k]), wv); c1.accumulate(Vec(repeating: a1[k]), wv)
            c2.accumulate(Vec(repeating: a2[k]), wv); c3.accumulate(Vec(repeating: a3[k]), wv)
            c4.accumulate(Vec(repeating: a4[k]), wv); c5.accumulate(Vec(repeating: a5[k]), wv)
            wp += 16
        }
        let e = epilogue
        let (bias, slope) = e.vectors(channel: n0)
        // Repeated rows store the same values to the same pixel again.
        storeVec(e.apply(c0, bias: bias, slope: slope), out)
        storeVec(e.apply(c1, bias: bias, slope: slope), out + r1 * outStride)
        storeVec(e.apply(c2, bias: bias, slope: slope), out + r2 * outStride)
        storeVec(e.apply(c3, bias: bias, slope: slope), out + r3 * outStride)
        storeVec(e.apply(c4, bias: bias, slope: slope), out + r4 * outStride)
        storeVec(e.apply(c5, bias: bias, slope: slope), out + r5 * outStride)
    }

    /// One pixel across four 16-wide panels `panelSize` floats apart.
    @inline(__always)
    private func tile1x64(
        _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ panelSize: Int, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec()
        let w0 = w, w1 = w + panelSize, w2 = w + 2 * panelSize, w3 = w + 3 * panelSize
        for k in 0..<K {
            let b = Vec(repeating: a[k])
            c0.accumulate(b, loadVec(w0 + 16 * k)); c1.accumulate(b, loadVec(w1 + 16 * k))
            c2.accumulate(b, loadVec(w2 + 16 * k)); c3.accumulate(b, loadVec(w3 + 16 * k))
        }
        let e = epilogue
        storeVec(e.apply(c0, channel: n0), out); storeVec(e.apply(c1, channel: n0 + 16), out + 16)
        storeVec(e.apply(c2, channel: n0 + 32), out + 32); storeVec(e.apply(c3, channel: n0 + 48), out + 48)
    }
}
#endif
