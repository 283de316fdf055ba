#if !GLIMT_AVX512
/// The AVX2 build's tile, which the portable build shares: two inputs at a time.
extension QuantizedFullyConnected {
    /// Inputs `count` at most, from the first, as many as the tile takes; returns how many it ran.
    @inline(__always)
    func multiInputTiles(
        _ x: UnsafePointer<Float>, _ K: Int, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
        _ q2: UnsafePointer<Int8>, _ q3: UnsafePointer<Int8>,
        _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>, _ s2: UnsafePointer<Float>, _ s3: UnsafePointer<Float>,
        _ blocks: Int, _ vecsPerBlock: Int, _ count: Int, _ acc: UnsafeMutablePointer<Float>
    ) -> Int {
        var f = 0
        while f + 2 <= count {
            let a = acc + f * 4 * laneCount
            tile2x2(x + f * K, K, q0, q1, s0, s1, blocks, vecsPerBlock, a, a + laneCount)
            tile2x2(x + f * K, K, q2, q3, s2, s3, blocks, vecsPerBlock, a + 2 * laneCount, a + 3 * laneCount)
            f += 2
        }
        return f
    }

    /// Two rows, two inputs `xStride` floats apart: 4 accumulators, 2 weights and 1 input are 14
    /// ymm registers. `accA` and `accB` hold row 0's and row 1's vectors for the first input; the
    /// second input's are 64 floats further.
    @inline(__always)
    private func tile2x2(
        _ x: UnsafePointer<Float>, _ xStride: Int, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
        _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>,
        _ blocks: Int, _ vecsPerBlock: Int, _ accA: UnsafeMutablePointer<Float>, _ accB: UnsafeMutablePointer<Float>
    ) {
        var a00 = loadVec(accA), a01 = loadVec(accB), a10 = loadVec(accA + 64), a11 = loadVec(accB + 64)
        let x0 = x, x1 = x + xStride
        var i = 0
        for b in 0..<blocks {
            let c0 = Vec(repeating: s0[b]), c1 = Vec(repeating: s1[b])
            for _ in 0..<vecsPerBlock {
                let w0 = Self.load(q0 + i) * c0, w1 = Self.load(q1 + i) * c1
                var xv = loadVec(x0 + i)
                a00.accumulate(xv, w0); a01.accumulate(xv, w1)
                xv = loadVec(x1 + i)
                a10.accumulate(xv, w0); a11.accumulate(xv, w1)
                i += laneCount
            }
        }
        storeVec(a00, accA); storeVec(a01, accB); storeVec(a10, accA + 64); storeVec(a11, accB + 64)
    }
}
#endif
