/// Coarse to fine: which stretches of a long video to sample fully, judged from a first look at
/// its keyframes alone (one picture per group of pictures, a fraction of the decoding).
///
/// The best-scoring keyframes are the candidates; each one's stretch runs from the keyframe
/// before it to one window past the keyframe after it, so every window that could hold the
/// candidate, and its neighbours on both sides, is sampled at the full rate. The look is only
/// worth it when the stretches are a small part of the video: short clips, and videos whose
/// keyframes are too far apart to say where to look, get a full pass (nil).
public enum Refinement {
    public struct Rules: Sendable, Equatable {
        /// Keyframes whose stretches are sampled fully.
        public var candidates: Int = 3
        /// A larger gap between keyframes (or before the first, or after the last) says too little.
        public var maxKeyframeGap: Double = 4
        /// Above this share of the video, the stretches cost about what a full pass does.
        public var maxShare: Double = 0.5
        /// Shorter videos are sampled whole without a look: three stretches of a video with
        /// keyframes a second apart cover about nine seconds, over half of anything shorter.
        public var minDuration: Double = 20
        /// From this long on, the look starts with every other keyframe and goes on to the others
        /// only when those say too little. Each keyframe left out saves the costliest picture to
        /// decode (on 4K HEVC about five other pictures' worth), but the stretches around
        /// keyframes twice as far apart are two seconds longer each: below a minute that costs
        /// more than it saves, above it saves a third (CHANGELOG.md has the measurements).
        public var halfLookFrom: Double = 60

        public init() {}
    }

    /// The indices of the `count` best keyframes, best first; ties to the earlier one, so the
    /// plan is the same run to run. A score met again to the last bit is the same picture again
    /// (a clip joined to itself, a loop): its stretch would hold the same windows, so it takes
    /// no other candidate's place.
    public static func candidates(scores: [Float], count: Int) -> [Int] {
        let order = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        var seen = Set<Float>()
        return Array(order.filter { seen.insert(scores[$0]).inserted }.prefix(count))
    }

    /// Half-open stretches `[start, end)` in seconds, ascending and disjoint, with starts on the
    /// sampling grid (multiples of `interval`), so a stretch's samples are the full pass's
    /// samples. Nil: sample the whole video.
    public static func stretches(keyframeTimes times: [Double], scores: [Float], duration: Double, windowLength: Double,
                                 interval: Double, rules: Rules = Rules()) -> [Range<Double>]? {
        precondition(times.count == scores.count, "one score per keyframe")
        guard times.count >= 2, duration >= rules.minDuration, interval > 0 else { return nil }
        let edges = [0] + times + [duration]
        for (a, b) in zip(edges, edges.dropFirst()) where b - a > rules.maxKeyframeGap { return nil }
        let spans: [Range<Double>] = candidates(scores: scores, count: rules.candidates).map { k in
            let before = k > 0 ? times[k - 1] : 0
            let after = k + 1 < times.count ? times[k + 1] : duration
            let start = (before / interval).rounded(.down) * interval
            return start..<min(duration, after + windowLength)
        }
        let merged = joined(spans)
        let covered = merged.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        return covered > rules.maxShare * duration ? nil : merged
    }

    /// Where a look at every other keyframe left out keyframes that could change the plan: from
    /// the looked-at keyframe before to the one after each of its `count` best (distinct
    /// pictures), ascending, overlaps joined.
    public static func neighbourhoods(keyframeTimes times: [Double], scores: [Float], duration: Double, count: Int) -> [Range<Double>] {
        precondition(times.count == scores.count, "one score per keyframe")
        return joined(candidates(scores: scores, count: count).map { k in
            (k > 0 ? times[k - 1] : 0)..<(k + 1 < times.count ? times[k + 1] : duration)
        })
    }

    /// Ascending, spans that overlap or touch made one.
    private static func joined(_ spans: [Range<Double>]) -> [Range<Double>] {
        var out: [Range<Double>] = []
        for s in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, s.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, s.upperBound)
            } else {
                out.append(s)
            }
        }
        return out
    }
}
