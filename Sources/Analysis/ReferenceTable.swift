/// Every reference of every person in one array, for comparing a face with all of them at once.
/// Judging a library compares each stored face with each reference (2.6 million faces and
/// seven references in a decade): one at a time, each dot product waited on its own chain of
/// additions; four side by side keep the vector unit busy. Each cosine is the one
/// `Embedding.cosine` gives, bit for bit (the same products, summed in the same order).
struct ReferenceTable: Sendable {
    /// The references' numbers, 128 each, one after another.
    private let values: [Float]
    /// The person of each reference.
    private let owners: [Int]
    let people: Int

    init(_ people: [[Embedding]]) {
        self.people = people.count
        values = people.flatMap { $0.flatMap(\.values) }
        owners = people.indices.flatMap { p in people[p].map { _ in p } }
    }

    /// Each person's best cosine with `face` into `row` (one per person), -1 for a person with
    /// no references.
    func bestCosines(_ face: Embedding, into row: UnsafeMutableBufferPointer<Float>) {
        let n = Embedding.count
        for p in 0..<people { row[p] = -.infinity }
        face.values.withUnsafeBufferPointer { a in
            values.withUnsafeBufferPointer { r in
                var k = 0
                while k < owners.count {
                    // Four at a time; a group short of four repeats its last reference.
                    let last = owners.count - 1
                    let d = Self.dots(
                        a.baseAddress!, r.baseAddress! + k * n, r.baseAddress! + min(k + 1, last) * n,
                        r.baseAddress! + min(k + 2, last) * n, r.baseAddress! + min(k + 3, last) * n)
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

    /// `Embedding.dot` of `a` with four others at once.
    @inline(__always)
    private static func dots(
        _ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>, _ b2: UnsafePointer<Float>,
        _ b3: UnsafePointer<Float>
    ) -> SIMD4<Double> {
        var s0 = SIMD8<Double>(), s1 = SIMD8<Double>(), s2 = SIMD8<Double>(), s3 = SIMD8<Double>()
        for i in stride(from: 0, to: Embedding.count, by: 8) {
            var x = SIMD8<Double>(), y0 = SIMD8<Double>(), y1 = SIMD8<Double>(), y2 = SIMD8<Double>(), y3 = SIMD8<Double>()
            for k in 0..<8 {
                x[k] = Double(a[i + k])
                y0[k] = Double(b0[i + k])
                y1[k] = Double(b1[i + k])
                y2[k] = Double(b2[i + k])
                y3[k] = Double(b3[i + k])
            }
            s0 += x * y0
            s1 += x * y1
            s2 += x * y2
            s3 += x * y3
        }
        return SIMD4(s0.sum(), s1.sum(), s2.sum(), s3.sum())
    }
}
