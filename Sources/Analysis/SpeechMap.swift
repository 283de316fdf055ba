/// Where a video's sound has someone speaking (or another voice-like sound: singing, a shout),
/// as time ranges in seconds from the video's start: a second whose edge falls inside one cuts
/// a word in half. Found by `VoiceActivity`; kept by the library, so a later reference chooses
/// its second by it without decoding.
public struct SpeechMap: Codable, Equatable, Sendable {
    /// Ascending, apart from each other.
    public var runs: [Range<Double>]

    public init(runs: [Range<Double>]) { self.runs = runs }

    /// How near an edge may come to speech and still fall in the pause: before a word a frame of
    /// 50 fps (a word starts sharply), after one more (its sound dies away, and rings on, below the
    /// level `VoiceActivity` hears): webrtcvad hears words end 60-150 ms after we do on the clips
    /// of `tools/moment`, and an edge this far from what we hear is in its pause 97 % of the time.
    public static let marginBefore = 0.02
    public static let marginAfter = 0.08

    /// Whether a cut at `time` falls inside speech (or too near it).
    public func cutsSpeech(at time: Double) -> Bool { clearance(at: time) <= 0 }

    /// How far `time` is inside speech and its margins: to the nearer end of the run it falls in
    /// (0 in a pause). A cut at a word's first or last sound is heard less than one in its middle.
    public func depth(at time: Double) -> Double {
        let i = firstRunEnding(after: time)
        guard i < runs.count, runs[i].lowerBound - Self.marginBefore < time else { return 0 }
        return min(time - (runs[i].lowerBound - Self.marginBefore), runs[i].upperBound + Self.marginAfter - time)
    }

    /// How far `time` is into a pause beyond the margins: 0 inside speech or its margins,
    /// infinity when there is no speech.
    public func clearance(at time: Double) -> Double {
        // Only the first run whose margin after ends past `time` and the one before can be nearest.
        let i = firstRunEnding(after: time)
        var nearest = Double.infinity
        if i < runs.count { nearest = max(0, runs[i].lowerBound - Self.marginBefore - time) }
        if i > 0 { nearest = min(nearest, time - runs[i - 1].upperBound - Self.marginAfter) }
        return nearest
    }

    /// The index of the first run whose margin after ends past `time` (`runs.count` when none):
    /// the run `time` falls in, with its margins, or else the next one.
    private func firstRunEnding(after time: Double) -> Int {
        var lo = 0
        var hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].upperBound + Self.marginAfter <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
