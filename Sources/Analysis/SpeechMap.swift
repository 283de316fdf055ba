/// Where a video's sound has someone speaking (or another voice-like sound: singing, a shout),
/// as time ranges in seconds from the video's start: a second whose edge falls inside one cuts
/// a word in half. Found by `VoiceActivity`; kept by the library, so a later reference chooses
/// its second by it without decoding.
public struct SpeechMap: Codable, Equatable, Sendable {
    /// Ascending, apart from each other.
    public var runs: [Range<Double>]

    public init(runs: [Range<Double>]) { self.runs = runs }

    /// How near an edge may come to speech and still fall in the pause: a frame of 50 fps, so
    /// the cut's frame holds no speech either.
    public static let edgeMargin = 0.02

    /// Whether a cut at `time` falls inside speech.
    public func cutsSpeech(at time: Double) -> Bool {
        runs.contains { $0.lowerBound - Self.edgeMargin < time && time < $0.upperBound + Self.edgeMargin }
    }
}
