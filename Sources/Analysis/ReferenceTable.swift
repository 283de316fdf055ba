/// Every reference of every person in one array, for comparing a face with all of them at once.
/// Judging a library compares each stored face with each reference (2.6 million faces and
/// seven references in a decade): one at a time, each dot product widened both sides to double
/// and waited on its own chain of additions; here the references are widened once, the face
/// once, and four sums run side by side. Each cosine is the one `Embedding.cosine` gives, bit
/// for bit (the same exact products, summed in the same order).
struct ReferenceTable: Sendable {
    /// The references' numbers as doubles, 128 each, one after another: widened once here
    /// rather than for every face.
    private let values: [Double]
    /// The person of each reference.
    private let owners: [Int]
    let people: Int

    init(_ people: [[Embedding]]) {
        self.people = people.count
        values = people.flatMap { $0.flatMap { $0.values.map(Double.init) } }
        owners = people.indices.flatMap { p in people[p].map { _ in p } }
    }

    /// Each person's best cosine with `face` into `row` (one per person), -1 for a person with
    /// no references.
    func bestCosines(_ face: Embedding, into row: UnsafeMutableBufferPointer<Float>) {
        let n = Embedding.count, lanes = n / 8
        for p in 0..<people { row[p] = -.infinity }
        withUnsafeTemporaryAllocation(of: SIMD8<Double>.self, capacity: lanes) { x in
            face.values.withUnsafeBufferPointer { a in
                for i in 0..<lanes {
                    for k in 0..<8 { x[i][k] = Double(a[i * 8 + k]) }
                }
            }
            values.withUnsafeBytes { r in
                let y = r.bindMemory(to: SIMD8<Double>.self)
                let last = owners.count - 1
                var k = 0
                while k < owners.count {
                    // Four at a time; a group short of four repeats its last reference.
                    let d = Self.dots(
                        x, y, lanes, k * lanes, min(k + 1, last) * lanes, min(k + 2, last) * lanes, min(k + 3, last) * lanes)
                    for j in 0..<min(4, owners.count - k) {
                        let c = Float(d[j])
                        if c > row[owners[k + j]] { row[owners[k + j]] = c }
                    }
                    k += 4
                }
            }
        }
        for p in 0..<people where row[p] == -.infinity { row[p] = -1 }
    }

    /// `Embedding.dot` of the face `x` with the four references starting at lanes `b0`...`b3`
    /// of `y`. A product of two floats is exact in double, so adding it with a fused
    /// multiply-add rounds as adding it after multiplying does: the same sum to the bit, at
    /// half the instructions where the CPU has FMA.
    @inline(__always)
    private static func dots(
        _ x: UnsafeMutableBufferPointer<SIMD8<Double>>, _ y: UnsafeBufferPointer<SIMD8<Double>>, _ lanes: Int,
        _ b0: Int, _ b1: Int, _ b2: Int, _ b3: Int
    ) -> SIMD4<Double> {
        var s0 = SIMD8<Double>(), s1 = SIMD8<Double>(), s2 = SIMD8<Double>(), s3 = SIMD8<Double>()
        for i in 0..<lanes {
            #if GLIMT_AVX512 || GLIMT_AVX2
            s0.addProduct(x[i], y[b0 + i])
            s1.addProduct(x[i], y[b1 + i])
            s2.addProduct(x[i], y[b2 + i])
            s3.addProduct(x[i], y[b3 + i])
            #else
            // No FMA in the baseline x86-64: `addProduct` would be a library call per number.
            s0 += x[i] * y[b0 + i]
            s1 += x[i] * y[b1 + i]
            s2 += x[i] * y[b2 + i]
            s3 += x[i] * y[b3 + i]
            #endif
        }
        return SIMD4(s0.sum(), s1.sum(), s2.sum(), s3.sum())
    }
}
