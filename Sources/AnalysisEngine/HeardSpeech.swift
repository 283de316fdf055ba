import Analysis
import MediaIO

/// The speech in a video's sound (see `VoiceActivity`), read a minute at a time so a long
/// video's sound is never held whole.
public enum HeardSpeech {
    static let piece = 60.0
    /// How far around a stretch its sound is listened to: the detector measures speech against the
    /// sound's quiet, which one second of talk may not hold.
    static let context = 2.0

    /// The speech heard from `start` for `length` seconds of the video at `path` (listened to with
    /// `context` around it, within the video: silence read past its end would be taken for its
    /// quiet); empty for a video without sound.
    public static func runs(path: String, start: Double, length: Double) throws -> [Range<Double>] {
        guard let reader = try AudioReader(path: path) else { return [] }
        let end = min(start + length + context, try VideoReader(path: path).info.duration)
        let from = max(0, min(start, end - length) - context)
        guard from < end else { return [] }
        return VoiceActivity.speech(mono(try reader.samples(from: from, to: end)), rate: AudioFormat.sampleRate, start: from).runs.filter {
            $0.upperBound > start && $0.lowerBound < start + length
        }
    }

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
            levels += VoiceActivity.levels(mono(try reader.samples(from: start, to: end)), rate: AudioFormat.sampleRate)
            start = end
        }
        return VoiceActivity.speech(levels: levels)
    }

    private static func mono(_ stereo: [Float]) -> [Float] {
        var mono = [Float](repeating: 0, count: stereo.count / AudioFormat.channels)
        for i in mono.indices { mono[i] = (stereo[2 * i] + stereo[2 * i + 1]) / 2 }
        return mono
    }
}
