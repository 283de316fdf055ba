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
        /// The library's look (`stretchesForAnyone`): a keyframe in the stretches within this of
        /// someone's best keyframe score is as good a place to find their second.
        public var anyoneMargin: Float = 0.03

        public init() {}
    }

    /// The library's look (`stretchesForAnyone`) starts with shorter videos than the one-shot's:
    /// its stretches are two windows long, not three seconds and more (a `Rules.minDuration`
    /// set shorter still applies): the three 8 s shared clips then hold a stretch of 2 s each,
    /// and no second chosen there moved by more than 0.001 (docs/library.md).
    public static let anyoneFrom: Double = 8

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
    public static func stretches(
        keyframeTimes times: [Double], scores: [Float], duration: Double, windowLength: Double,
        interval: Double, rules: Rules = Rules()
    ) -> [Range<Double>]? {
        precondition(times.count == scores.count, "one score per keyframe")
        guard saysEnough(keyframeTimes: times, duration: duration, interval: interval, rules: rules) else { return nil }
        return share(
            joined(
                candidates(scores: scores, count: rules.candidates).map {
                    stretch(around: $0, keyframeTimes: times, duration: duration, windowLength: windowLength, interval: interval)
                }), of: duration, rules: rules)
    }

    /// Whether keyframes at `times` are close enough together, in a video long enough, to say
    /// where to look.
    private static func saysEnough(keyframeTimes times: [Double], duration: Double, interval: Double, rules: Rules) -> Bool {
        guard times.count >= 2, duration >= rules.minDuration, interval > 0 else { return false }
        let edges = [0] + times + [duration]
        return !zip(edges, edges.dropFirst()).contains { $1 - $0 > rules.maxKeyframeGap }
    }

    /// Keyframe `k`'s stretch: from the keyframe before (on the sampling grid) to one window past
    /// the keyframe after.
    private static func stretch(
        around k: Int, keyframeTimes times: [Double], duration: Double, windowLength: Double, interval: Double
    ) -> Range<Double> {
        let before = k > 0 ? times[k - 1] : 0
        let after = k + 1 < times.count ? times[k + 1] : duration
        return (before / interval).rounded(.down) * interval..<min(duration, after + windowLength)
    }

    /// Where every window holding the keyframe at `time` lies: from a window before it (on the
    /// sampling grid) to a window after it.
    private static func windows(holding time: Double, duration: Double, windowLength: Double, interval: Double) -> Range<Double> {
        max(0, ((time - windowLength) / interval).rounded(.down) * interval)..<min(duration, time + windowLength)
    }

    /// Joined stretches, or nil when they cover more of the video than a look is worth.
    private static func share(_ merged: [Range<Double>], of duration: Double, rules: Rules) -> [Range<Double>]? {
        let covered = merged.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        return covered > rules.maxShare * duration ? nil : merged
    }

    /// The library's look, for references it does not know yet: anyone seen at a keyframe could
    /// be a later reference's person, so every face seen is taken for one (its own embedding as
    /// the reference), beside no one at all (the days judged without references). Each of them
    /// is served by a stretch that holds the windows of a keyframe scoring within
    /// `rules.anyoneMargin` of their best keyframe for them; a stretch is the windows holding one
    /// keyframe (a window either side of it). A stretch that holds a keyframe but not the
    /// windows either side of it serves no one there: a keyframe just after a scene cut lies off
    /// the sampling grid, and the stretch round the next keyframe, starting on the grid, begins a
    /// hair before it. The stretches are chosen greedily, the one serving most of those not yet served
    /// first (ties to the earlier keyframe): people seen together share stretches, a face seen at
    /// one keyframe only gets a stretch of its own, and people each at their best somewhere else
    /// but nearly as clear together take the one stretch where they are together. Narrower than
    /// the one-shot's stretches (a keyframe either side), which hedge with three candidates for
    /// one person where this takes at most one for each. Nil: sample the whole video (the same
    /// rules as `stretches`).
    public static func stretchesForAnyone(
        keyframes look: [ObservedFrame], duration: Double, windowLength: Double, interval: Double,
        judging: Judgement.Rules, rules: Rules = Rules()
    ) -> [Range<Double>]? {
        let times = look.map(\.time)
        var rules = rules
        rules.minDuration = min(rules.minDuration, anyoneFrom)
        guard saysEnough(keyframeTimes: times, duration: duration, interval: interval, rules: rules) else { return nil }
        // Each one looked for (no one, then every face seen) and their score at every keyframe.
        let wanted: [[Float]] =
            [look.map { Judgement(references: [], rules: judging).frame($0).score.total }]
            + look.flatMap(\.faces).compactMap { face in
                face.embedding.map { e in
                    let judge = Judgement(references: [e], rules: judging)
                    return look.map { judge.frame($0).score.total }
                }
            }
        let spans = times.map { windows(holding: $0, duration: duration, windowLength: windowLength, interval: interval) }
        let near = wanted.map { ($0.max() ?? 0) - rules.anyoneMargin }
        let serves: [[Int]] = spans.map { span in
            let held = spans.indices.filter { span.lowerBound <= spans[$0].lowerBound && spans[$0].upperBound <= span.upperBound }
            return wanted.indices.filter { w in held.contains { wanted[w][$0] >= near[w] } }
        }
        var open = [Bool](repeating: true, count: wanted.count)
        var chosen: [Range<Double>] = []
        while true {
            var best = 0, gain = 0
            for k in serves.indices {
                let g = serves[k].reduce(0) { $0 + (open[$1] ? 1 : 0) }
                if g > gain { (best, gain) = (k, g) }
            }
            // Everyone's best keyframe serves them: none left to serve but the scores that are not numbers.
            guard gain > 0 else { break }
            for w in serves[best] { open[w] = false }
            chosen.append(spans[best])
        }
        return share(joined(chosen), of: duration, rules: rules)
    }

    /// Where a look at every other keyframe left out keyframes that could change the plan: from
    /// the looked-at keyframe before to the one after each of its `count` best (distinct
    /// pictures), ascending, overlaps joined.
    public static func neighbourhoods(keyframeTimes times: [Double], scores: [Float], duration: Double, count: Int) -> [Range<Double>] {
        precondition(times.count == scores.count, "one score per keyframe")
        return joined(
            candidates(scores: scores, count: count).map { k in
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
