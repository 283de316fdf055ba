/// The tile of every build for input channel counts other than 3.
extension Conv3x3 {
    /// Up to 4 output pixels x 16 or 32 output channels, accumulated over the 3 kernel rows.
    @inline(__always)
    func tile(
        _ r0: UnsafeMutablePointer<Float>, _ r1: UnsafeMutablePointer<Float>, _ r2: UnsafeMutablePointer<Float>,
        _ ox: Int, _ px: Int, _ n0: Int, _ two: Bool, _ out: UnsafeMutablePointer<Float>, _ outStride: Int
    ) {
        let span = 3 * inChannels, step = stride * inChannels
        var a0 = Vec(), a1 = Vec(), a2 = Vec(), a3 = Vec()
        var b0 = Vec(), b1 = Vec(), b2 = Vec(), b3 = Vec()
        for dy in 0..<3 {
            let r = (dy == 0 ? r0 : dy == 1 ? r1 : r2) + ox * step
            var w = direct.data + dy * span * paddedOut + n0
            for j in 0..<span {
                let w0 = loadVec(w)
                let x0 = Vec(repeating: r[j]), x1 = Vec(repeating: r[step + j])
                let x2 = Vec(repeating: r[2 * step + j]), x3 = Vec(repeating: r[3 * step + j])
                a0.accumulate(x0, w0); a1.accumulate(x1, w0); a2.accumulate(x2, w0); a3.accumulate(x3, w0)
                if two {
                    let w1 = loadVec(w + 16)
                    b0.accumulate(x0, w1); b1.accumulate(x1, w1); b2.accumulate(x2, w1); b3.accumulate(x3, w1)
                }
                w += paddedOut
            }
        }
        let e = epilogue
        @inline(__always) func store(_ p: Int, _ a: Vec, _ b: Vec) {
            guard p < px else { return }
            let o = out + (ox + p) * outStride + n0
            storeVec(e.apply(a, channel: n0), o)
            if two { storeVec(e.apply(b, channel: n0 + 16), o + 16) }
        }
        store(0, a0, b0); store(1, a1, b1); store(2, a2, b2); store(3, a3, b3)
    }
}
