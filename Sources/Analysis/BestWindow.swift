/// The chosen second: the window of the given length whose frames have the best mean score, so
/// one good frame next to a blur does not win.
public enum BestWindow {
    public struct Window: Codable, Equatable, Sendable {
        public var start: Double
        public var length: Double
        public var meanScore: Float
        /// Indices of the frames inside [start, start + length).
        public var frames: Range<Int>
    }

    /// `times` ascending, seconds from the start of the video; `duration` in seconds. Candidate
    /// windows start at each sampled frame and must end within the video, and within one of
    /// `sampled` when only those stretches were sampled (a window running past a stretch's end
    /// would be judged by its first frames alone). Ties go to the earlier window. Nil when the
    /// video is shorter than `length` or has no frames.
    public static func best(
        times: [Double], scores: [Float], duration: Double, length: Double = 1.0,
        sampled: [Range<Double>]? = nil
    ) -> Window? {
        precondition(times.count == scores.count, "one score per frame")
        var best: Window?
        var end = 0
        // Frame times carry timestamp rounding; a window may end a hair past the last frame.
        let slack = 1e-3
        for i in times.indices {
            let start = times[i]
            guard start + length <= duration + slack else { break }
            if let sampled, !sampled.contains(where: { start >= $0.lowerBound - slack && start + length <= $0.upperBound + slack }) { continue }
            end = max(end, i)
            while end < times.count && times[end] < start + length - slack { end += 1 }
            let n = end - i
            guard n > 0 else { continue }
            let mean = scores[i..<end].reduce(0, +) / Float(n)
            if best == nil || mean > best!.meanScore {
                best = Window(start: start, length: length, meanScore: mean, frames: i..<end)
            }
        }
        return best
    }

    /// The `count` best windows that do not overlap, best first (the best is `best`'s): a video's
    /// other good seconds, for a person choosing among them.
    public static func top(
        _ count: Int, times: [Double], scores: [Float], duration: Double, length: Double = 1.0,
        sampled: [Range<Double>]? = nil
    ) -> [Window] {
        var chosen: [Window] = []
        var taken: [Range<Double>] = []
        while chosen.count < count {
            // The best window of what is left: frames inside a chosen window score nothing, and a
            // window touching one is not a window of its own.
            let left = scores.indices.map { i in taken.contains { $0.contains(times[i]) } ? -Float.infinity : scores[i] }
            guard let w = best(times: times, scores: left, duration: duration, length: length, sampled: sampled), w.meanScore.isFinite,
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
        let slack = 1e-3
        let inside = times.indices.filter { times[$0] >= start - slack && times[$0] < start + length - slack }
        guard let first = inside.first, let last = inside.last else { return nil }
        let mean = scores[first...last].reduce(0, +) / Float(last - first + 1)
        return Window(start: start, length: length, meanScore: mean, frames: first..<(last + 1))
    }
}
