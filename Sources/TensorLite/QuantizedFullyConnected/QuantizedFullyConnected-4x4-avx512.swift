#if GLIMT_AVX512
/// The AVX-512 build's tile: four inputs at a time.
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
        while f + 4 <= count {
            tile4x4(x + f * K, K, q0, q1, q2, q3, s0, s1, s2, s3, blocks, vecsPerBlock, acc + f * 4 * laneCount)
            f += 4
        }
        return f
    }

    /// Four rows, four inputs `xStride` floats apart: 16 accumulators, 4 weights, 1 input in 32 zmm.
    @inline(__always)
    private func tile4x4(
        _ x: UnsafePointer<Float>, _ xStride: Int, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
        _ q2: UnsafePointer<Int8>, _ q3: UnsafePointer<Int8>,
        _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>, _ s2: UnsafePointer<Float>, _ s3: UnsafePointer<Float>,
        _ blocks: Int, _ vecsPerBlock: Int, _ acc: UnsafeMutablePointer<Float>
    ) {
        let p0 = acc, p1 = acc + 64, p2 = acc + 128, p3 = acc + 192
        var a00 = loadVec(p0), a01 = loadVec(p0 + 16), a02 = loadVec(p0 + 32), a03 = loadVec(p0 + 48)
        var a10 = loadVec(p1), a11 = loadVec(p1 + 16), a12 = loadVec(p1 + 32), a13 = loadVec(p1 + 48)
        var a20 = loadVec(p2), a21 = loadVec(p2 + 16), a22 = loadVec(p2 + 32), a23 = loadVec(p2 + 48)
        var a30 = loadVec(p3), a31 = loadVec(p3 + 16), a32 = loadVec(p3 + 32), a33 = loadVec(p3 + 48)
        let x0 = x, x1 = x + xStride, x2 = x + 2 * xStride, x3 = x + 3 * xStride
        var i = 0
        for b in 0..<blocks {
            let c0 = Vec(repeating: s0[b]), c1 = Vec(repeating: s1[b]), c2 = Vec(repeating: s2[b]), c3 = Vec(repeating: s3[b])
            for _ in 0..<vecsPerBlock {
                let w0 = Self.load(q0 + i) * c0, w1 = Self.load(q1 + i) * c1
                let w2 = Self.load(q2 + i) * c2, w3 = Self.load(q3 + i) * c3
                var xv = loadVec(x0 + i)
                a00.accumulate(xv, w0); a01.accumulate(xv, w1); a02.accumulate(xv, w2); a03.accumulate(xv, w3)
                xv = loadVec(x1 + i)
                a10.accumulate(xv, w0); a11.accumulate(xv, w1); a12.accumulate(xv, w2); a13.accumulate(xv, w3)
                xv = loadVec(x2 + i)
                a20.accumulate(xv, w0); a21.accumulate(xv, w1); a22.accumulate(xv, w2); a23.accumulate(xv, w3)
                xv = loadVec(x3 + i)
                a30.accumulate(xv, w0); a31.accumulate(xv, w1); a32.accumulate(xv, w2); a33.accumulate(xv, w3)
                i += laneCount
            }
        }
        storeVec(a00, p0); storeVec(a01, p0 + 16); storeVec(a02, p0 + 32); storeVec(a03, p0 + 48)
        storeVec(a10, p1); storeVec(a11, p1 + 16); storeVec(a12, p1 + 32); storeVec(a13, p1 + 48)
        storeVec(a20, p2); storeVec(a21, p2 + 16); storeVec(a22, p2 + 32); storeVec(a23, p2 + 48)
        storeVec(a30, p3); storeVec(a31, p3 + 16); storeVec(a32, p3 + 32); storeVec(a33, p3 + 48)
    }
}
#endif
