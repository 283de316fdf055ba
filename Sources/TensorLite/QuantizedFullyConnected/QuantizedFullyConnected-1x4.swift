/// The tile of every build for the inputs the build's wider tile leaves.
extension QuantizedFullyConnected {
    /// Four rows, one input; `acc` holds the input's four partial-sum vectors.
    @inline(__always)
    func tile4x1(
        _ x: UnsafePointer<Float>, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
        _ q2: UnsafePointer<Int8>, _ q3: UnsafePointer<Int8>,
        _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>, _ s2: UnsafePointer<Float>, _ s3: UnsafePointer<Float>,
        _ blocks: Int, _ vecsPerBlock: Int, _ acc: UnsafeMutablePointer<Float>
    ) {
        var a0 = loadVec(acc), a1 = loadVec(acc + 16), a2 = loadVec(acc + 32), a3 = loadVec(acc + 48)
        var i = 0
        for b in 0..<blocks {
            let c0 = Vec(repeating: s0[b]), c1 = Vec(repeating: s1[b]), c2 = Vec(repeating: s2[b]), c3 = Vec(repeating: s3[b])
            for _ in 0..<vecsPerBlock {
                let xv = loadVec(x + i)
                a0.accumulate(xv, Self.load(q0 + i) * c0); a1.accumulate(xv, Self.load(q1 + i) * c1)
                a2.accumulate(xv, Self.load(q2 + i) * c2); a3.accumulate(xv, Self.load(q3 + i) * c3)
                i += laneCount
            }
        }
        storeVec(a0, acc); storeVec(a1, acc + 16); storeVec(a2, acc + 32); storeVec(a3, acc + 48)
    }
}
