/// An SFace embedding: 128 finite numbers, L2-normalised. Every value of this type has that
/// shape, so comparing two can never fail; numbers from a file a person can edit become one
/// only through `init(validating:)` (or decoding, which uses it).
public struct Embedding: Codable, Equatable, Sendable {
    public static let count = 128
    public let values: [Float]

    /// Normalises `raw` (the network's own output, which has the right length by construction).
    package init(normalizing raw: [Float]) {
        precondition(raw.count == Self.count, "SFace gives \(Self.count) numbers")
        values = Self.normalized(raw)
    }

    /// Numbers from outside (a file, a test): the right count, all finite, not all zero.
    public init(validating raw: [Float]) throws {
        guard raw.count == Self.count else { throw Invalid("has \(raw.count) numbers; an SFace embedding has \(Self.count)") }
        guard raw.allSatisfy(\.isFinite) else { throw Invalid("holds a number that is not finite") }
        guard raw.contains(where: { $0 != 0 }) else { throw Invalid("is all zeros") }
        values = Self.normalized(raw)
    }

    /// Why numbers are not an embedding (the caller says where they came from).
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        do { try self.init(validating: try container.decode([Float].self)) } catch let e as Invalid {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "the embedding \(e.description)")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// Cosine similarity: both are normalised, so their dot product (summed in double, in eight
    /// running sums the compiler keeps in vector registers: every stored face is compared with
    /// every reference each time a library is judged).
    public func cosine(_ other: Embedding) -> Float {
        values.withUnsafeBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in Float(Self.dot(a, b)) }
        }
    }

    /// The best cosine over `references` (a face only has to resemble one of them); nil for none.
    public func bestCosine(_ references: [Embedding]) -> Float? {
        var best: Float?
        for r in references {
            let c = cosine(r)
            if best == nil || c > best! { best = c }
        }
        return best
    }

    /// The sum of `a[i] * b[i]` in double over `count` numbers.
    @inline(__always)
    static func dot(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>) -> Double {
        var s = SIMD8<Double>()
        for i in stride(from: 0, to: count, by: 8) {
            var x = SIMD8<Double>(), y = SIMD8<Double>()
            for k in 0..<8 {
                x[k] = Double(a[i + k])
                y[k] = Double(b[i + k])
            }
            s += x * y
        }
        return s.sum()
    }

    /// The mean of several embeddings, re-normalised (a face and its mirror image).
    public static func average(_ all: [Embedding]) -> Embedding {
        precondition(!all.isEmpty, "average of no embeddings")
        var sum = [Float](repeating: 0, count: count)
        for e in all { for i in 0..<count { sum[i] += e.values[i] } }
        return Embedding(normalizing: sum)
    }

    private static func normalized(_ v: [Float]) -> [Float] {
        let n = v.withUnsafeBufferPointer { dot($0, $0) }
        let inv = n > 0 ? Float(1 / n.squareRoot()) : 0
        return v.map { $0 * inv }
    }
}
