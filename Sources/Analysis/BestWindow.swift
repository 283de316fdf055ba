/// The chosen second: the window of the given length whose frames have the best mean score, so
/// one good frame next to a blur does not win.
public enum BestWindow {
    public struct Window: Codable, Equatable, Sendable {
        public var start: Double
        public var length: Double
        public var meanScore: Float
        /// Indices of the frames inside [start, start + length).
        public var frames: Range<Int>
        /// What is wrong with it as a moment, one phrase each ("eyes closed at 2.4 s"); nil when
        /// not looked at (no `Moment`).
        public var flaws: [String]? = nil
        /// Why a better-scoring second was not chosen, when one was not ("the second at 3.0 s
        /// scores higher: scene cut at 3.4 s").
        public var passedOver: String? = nil
    }

    /// `times` ascending, seconds from the start of the video; `duration` in seconds. Candidate
    /// windows start at each sampled frame and must end within the video, and within one of
    /// `sampled` when only those stretches were sampled (a window running past a stretch's end
    /// would be judged by its first frames alone). Ties go to the earlier window. Nil when the
    /// video is shorter than `length` or has no frames.
    ///
    /// With `marks`, the second is a whole moment (see `Moment`): each window is first moved by up
    /// to `Moment.edgeShift` of its length to put its edges in pauses of speech; a window across a
    /// scene cut is not a candidate while any other is; and among the windows scoring within
    /// `Moment.closeEnough` of the best, the one with the lightest flaws wins (closed eyes weigh
    /// 3, each edge inside speech 2), then the best score.
    public static func best(
        times: [Double], scores: [Float], duration: Double, length: Double = 1.0,
        sampled: [Range<Double>]? = nil, marks: Moment? = nil
    ) -> Window? {
        best(times: times, scores: scores, duration: duration, length: length, sampled: sampled, marks: marks, avoid: [])
    }

    static func best(
        times: [Double], scores: [Float], duration: Double, length: Double, sampled: [Range<Double>]?, marks: Moment?, avoid: [Range<Double>]
    ) -> Window? {
        let all = candidates(times: times, scores: scores, duration: duration, length: length, sampled: sampled)
        guard let marks else { return highest(all).map { all[$0] } }
        return marks.choose(from: all, in: Frames(times: times, scores: scores, duration: duration, sampled: sampled), avoid: avoid)
    }

    /// Frame times carry timestamp rounding; a window may end a hair past the last frame.
    static let slack = 1e-3

    /// A video's scored frames, for a window that does not start on one (`Moment` moves a second
    /// into the pauses of speech).
    struct Frames {
        var times: [Double]
        var scores: [Float]
        var duration: Double
        var sampled: [Range<Double>]?

        /// The window of `length` from `start`, when it lies within the video (and one of its
        /// sampled stretches) and shows a frame.
        func window(at start: Double, length: Double) -> Window? {
            guard start >= 0, start + length <= duration + slack else { return nil }
            if let sampled, !sampled.contains(where: { start >= $0.lowerBound - slack && start + length <= $0.upperBound + slack }) { return nil }
            return BestWindow.at(start: start, times: times, scores: scores, length: length)
        }
    }

    /// Where in `windows` the best-scoring one is, the earliest of equals.
    static func highest(_ windows: [Window]) -> Int? {
        var best: Int?
        for i in windows.indices where best == nil || windows[i].meanScore > windows[best!].meanScore { best = i }
        return best
    }

    /// Every window a second could be, in time order.
    static func candidates(
        times: [Double], scores: [Float], duration: Double, length: Double, sampled: [Range<Double>]?
    ) -> [Window] {
        precondition(times.count == scores.count, "one score per frame")
        var all: [Window] = []
        var end = 0
        for i in times.indices {
            let start = times[i]
            guard start + length <= duration + slack else { break }
            if let sampled, !sampled.contains(where: { start >= $0.lowerBound - slack && start + length <= $0.upperBound + slack }) { continue }
            end = max(end, i)
            while end < times.count && times[end] < start + length - slack { end += 1 }
            let n = end - i
            guard n > 0 else { continue }
            let mean = scores[i..<end].reduce(0, +) / Float(n)
            all.append(Window(start: start, length: length, meanScore: mean, frames: i..<end))
        }
        return all
    }

    /// The `count` best windows that do not overlap, best first (the best is `best`'s): a video's
    /// other good seconds, for a person choosing among them.
    public static func top(
        _ count: Int, times: [Double], scores: [Float], duration: Double, length: Double = 1.0,
        sampled: [Range<Double>]? = nil, marks: Moment? = nil
    ) -> [Window] {
        var chosen: [Window] = []
        var taken: [Range<Double>] = []
        while chosen.count < count {
            // The best window of what is left: frames inside a chosen window score nothing, and a
            // window touching one is not a window of its own.
            let left = scores.indices.map { i in taken.contains { $0.contains(times[i]) } ? -Float.infinity : scores[i] }
            guard
                let w = best(times: times, scores: left, duration: duration, length: length, sampled: sampled, marks: marks, avoid: taken),
                w.meanScore.isFinite,
                !taken.contains(where: { $0.overlaps(w.start..<(w.start + w.length)) })
            else { break }
            chosen.append(w)
            taken.append(w.start..<(w.start + w.length))
        }
        return chosen
    }

    /// The window starting at `start` (a second a person chose): the frames inside it and their
    /// mean score. Nil when no frame falls inside.
    public static func at(start: Double, times: [Double], scores: [Float], length: Double = 1.0) -> Window? {
        precondition(times.count == scores.count, "one score per frame")
        let first = firstIndex(in: times, from: start - slack)
        let end = firstIndex(in: times, from: start + length - slack)
        guard first < end else { return nil }
        let mean = scores[first..<end].reduce(0, +) / Float(end - first)
        return Window(start: start, length: length, meanScore: mean, frames: first..<end)
    }

    /// The first index of ascending `times` at or after `time`.
    public static func firstIndex(in times: [Double], from time: Double) -> Int {
        var lo = 0
        var hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
