/// Embedding arithmetic shared by recognition and references.
public enum Embedding {
    public static func normalized(_ v: [Float]) -> [Float] {
        var n: Double = 0
        for x in v { n += Double(x) * Double(x) }
        let inv = n > 0 ? Float(1 / n.squareRoot()) : 0
        return v.map { $0 * inv }
    }

    /// Cosine similarity; for normalised embeddings this is their dot product.
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "cosine of vectors of different lengths")
        var dot: Double = 0, na: Double = 0, nb: Double = 0
        for i in 0..<a.count {
            dot += Double(a[i]) * Double(b[i])
            na += Double(a[i]) * Double(a[i])
            nb += Double(b[i]) * Double(b[i])
        }
        guard na > 0, nb > 0 else { return 0 }
        return Float(dot / (na.squareRoot() * nb.squareRoot()))
    }

    /// The mean of several embeddings, re-normalised (e.g. a face and its mirror image).
    public static func average(_ vs: [[Float]]) -> [Float] {
        precondition(!vs.isEmpty, "average of no embeddings")
        var sum = [Float](repeating: 0, count: vs[0].count)
        for v in vs { for i in 0..<sum.count { sum[i] += v[i] } }
        return normalized(sum)
    }
}
