import Analysis
import MediaIO

/// The speech in a video's sound (see `VoiceActivity`), read a minute at a time so a long
/// video's sound is never held whole.
enum HeardSpeech {
    static let piece = 60.0

    /// Nil for a video without sound.
    static func map(path: String, duration: Double) throws -> SpeechMap? {
        guard let reader = try AudioReader(path: path) else { return nil }
        var levels: [Float] = []
        var start = 0.0
        while start < duration {
            // Whole 20 ms frames per piece, so the levels follow each other exactly.
            let frames = Int(min(piece, duration - start) / VoiceActivity.frameSeconds)
            guard frames > 0 else { break }
            let end = start + Double(frames) * VoiceActivity.frameSeconds
            let stereo = try reader.samples(from: start, to: end)
            var mono = [Float](repeating: 0, count: stereo.count / AudioFormat.channels)
            for i in mono.indices { mono[i] = (stereo[2 * i] + stereo[2 * i + 1]) / 2 }
            levels += VoiceActivity.levels(mono, rate: AudioFormat.sampleRate)
            start = end
        }
        return VoiceActivity.speech(levels: levels)
    }
}
