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

    /// Numbers from outside (a file, a test, the library's store): the right count, all finite,
    /// not all zero. Normalised in the array given, not a copy: judging a decade reads 2.6
    /// million stored embeddings. The sum of squares (in double, where 128 squares of finite
    /// floats cannot overflow and a nonzero one cannot vanish) is finite exactly when every
    /// number is, and zero exactly when every number is.
    public init(validating raw: consuming [Float]) throws {
        guard raw.count == Self.count else { throw Invalid("has \(raw.count) numbers; an SFace embedding has \(Self.count)") }
        let n = raw.withUnsafeBufferPointer { Self.dot($0, $0) }
        guard n.isFinite else { throw Invalid("holds a number that is not finite") }
        guard n > 0 else { throw Invalid("is all zeros") }
        Self.scale(&raw, by: n)
        values = raw
    }

    /// Stored half floats (`HalfFloats`, as the library keeps them), widened into the
    /// embedding's own array and then checked and normalised as `init(validating:)` does.
    public init(validatingHalves bytes: UnsafeRawBufferPointer) throws {
        let n = bytes.count / 2
        try self.init(
            validating: [Float](unsafeUninitializedCapacity: n) { out, count in
                HalfFloats.decode(bytes, into: out)
                count = n
            })
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
        var v = v
        scale(&v, by: v.withUnsafeBufferPointer { dot($0, $0) })
        return v
    }

    /// `v` divided by the square root of `squares`, its sum of squares (zero stays zero).
    private static func scale(_ v: inout [Float], by squares: Double) {
        let inv = squares > 0 ? Float(1 / squares.squareRoot()) : 0
        v.withUnsafeMutableBufferPointer { p in
            for i in p.indices { p[i] *= inv }
        }
    }
}
