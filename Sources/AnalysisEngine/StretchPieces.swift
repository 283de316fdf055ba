/// Stretches cut into pieces for measuring side by side. Two stretches of 7 and 2 seconds, one
/// on each thread, leave one core idle for five of the seven seconds; cut where a keyframe starts
/// a new group of pictures, the pieces share out evenly, and a piece's decoder starts at its
/// keyframe as a whole stretch's does, with no pictures decoded only to reach its first sample.
public enum StretchPieces {
    /// `stretches` (ascending, disjoint, starting on the sampling grid) cut into pieces of about
    /// a `threads`-th of their total over two, ascending. Each cut lies at the first grid point at
    /// or after a keyframe, the one nearest a piece's length on, so the pieces' samples are
    /// together the stretches' samples. What is left of a stretch is cut only while it is longer
    /// than a piece and a half, and no piece is shorter than half one. A stretch with no keyframe
    /// inside stays whole.
    public static func cut(_ stretches: [Range<Double>], keyframes: [Double], interval: Double, threads: Int) -> [Range<Double>] {
        let total = stretches.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        let piece = total / Double(2 * max(1, threads))
        guard piece > 0, interval > 0 else { return stretches }
        // A keyframe on the grid to within rounding is cut at its own grid point.
        let cuts = keyframes.map { ($0 / interval - 1e-6).rounded(.up) * interval }
        return stretches.flatMap { s -> [Range<Double>] in
            var out: [Range<Double>] = []
            var start = s.lowerBound
            while s.upperBound - start > 1.5 * piece,
                let cut = cuts.filter({ $0 - start >= piece / 2 && s.upperBound - $0 >= piece / 2 })
                    .min(by: { abs($0 - start - piece) < abs($1 - start - piece) })
            {
                out.append(start..<cut)
                start = cut
            }
            out.append(start..<s.upperBound)
            return out
        }
    }
}
