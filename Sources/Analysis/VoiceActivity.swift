import Foundation

/// Finds speech in a video's sound, classically: the energy of 20 ms frames in the voice band,
/// against the sound's own quiet.
///
/// The sound is high-passed at about 150 Hz (wind and handling rumble carry no words) and
/// low-passed at about 4 kHz (hiss carries none either). A frame is voiced when its energy is
/// 9 dB or more over the sound's quiet (the level that 15 % of its frames stay under) and over
/// -55 dBFS (so a quiet room's murmur is not speech). Voiced runs shorter than 60 ms are clicks
/// and knocks; gaps shorter than 150 ms are the stops and breaths inside a phrase, not pauses;
/// each run then reaches 20 ms further each side, where a word's first and last sounds are too
/// soft to measure, and on while the sound stays within `hysteresis` of the level that started
/// it. The levels are those that agree best with webrtcvad (mode 2, on sound with its steady
/// hum taken out) on the 41 clips with speech of tools/moment; the hysteresis keeps edges out
/// of the dips it hears as speech about half the time (tools/moment/README.md). 98 % of the
/// edges it hears inside speech are heard so here, 85 % of those it hears in a pause too.
public enum VoiceActivity {
    public static let frameSeconds = 0.02
    /// Times are counted in whole frames over this, so they print as the round numbers they are.
    static let framesPerSecond = 50.0
    static let overQuiet: Float = 9, floorDB: Float = -55, quietShare = 0.15
    static let shortestRun = 0.06, shortestPause = 0.15, reach = 0.02
    /// A run, once heard, lasts until the sound falls this far below the level that started it:
    /// a dip between two words that stays over the room's quiet is not a pause.
    static let hysteresis: Float = 6

    /// `samples`: mono at `rate` Hz, starting at `start` seconds of the video.
    public static func speech(_ samples: [Float], rate: Int, start: Double = 0) -> SpeechMap {
        speech(levels: levels(samples, rate: rate), start: start)
    }

    /// The speech in frames of `frameSeconds` whose levels (`levels`) follow each other from
    /// `start` seconds of the video.
    public static func speech(levels: [Float], start: Double = 0) -> SpeechMap {
        guard !levels.isEmpty else { return SpeechMap(runs: []) }
        let quiet = levels.sorted()[Int(Double(levels.count - 1) * quietShare)]
        let threshold = max(quiet + overQuiet, floorDB)
        var runs: [Range<Double>] = []
        var first: Int?
        for i in 0...levels.count {
            let level = i < levels.count ? levels[i] : -Float.infinity
            if level >= threshold {
                if first == nil { first = i }
            } else if let f = first {
                runs.append(Double(f) / framesPerSecond..<Double(i) / framesPerSecond)
                first = nil
            }
        }
        // Stops inside a word first, then clicks: a word of short bursts is one run.
        var joined: [Range<Double>] = []
        for r in runs {
            if let last = joined.last, r.lowerBound - last.upperBound < shortestPause {
                joined[joined.count - 1] = last.lowerBound..<r.upperBound
            } else {
                joined.append(r)
            }
        }
        let end = Double(levels.count) / framesPerSecond
        let settled = threshold - hysteresis
        let kept = joined.filter { $0.upperBound - $0.lowerBound >= shortestRun }
            .map { max(0, $0.lowerBound - reach)..<min(end, $0.upperBound + reach) }
            .map { r -> Range<Double> in
                var first = Int((r.lowerBound * framesPerSecond).rounded())
                var last = Int((r.upperBound * framesPerSecond).rounded())
                while first > 0 && levels[first - 1] >= settled { first -= 1 }
                while last < levels.count && levels[last] >= settled { last += 1 }
                return Double(first) / framesPerSecond..<Double(last) / framesPerSecond
            }
        var merged: [Range<Double>] = []
        for r in kept {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        func rounded(_ t: Double) -> Double { ((start + t) * 1000).rounded() / 1000 }
        return SpeechMap(runs: merged.map { rounded($0.lowerBound)..<rounded($0.upperBound) })
    }

    /// Each whole frame's level in dBFS after the voice-band filters (one-pole, run once): a
    /// long sound is measured piece by piece, whole frames each, and the levels put together.
    public static func levels(_ samples: [Float], rate: Int) -> [Float] {
        let frame = max(1, Int(Double(rate) * frameSeconds))
        let dt = 1 / Float(rate)
        let highRC = 1 / (2 * Float.pi * 150), lowRC = 1 / (2 * Float.pi * 4000)
        let a = highRC / (highRC + dt), b = dt / (lowRC + dt)
        var previousIn: Float = 0, high: Float = 0, low: Float = 0
        var levels: [Float] = []
        levels.reserveCapacity(samples.count / frame)
        var sum: Float = 0, n = 0
        for x in samples {
            high = a * (high + x - previousIn)
            previousIn = x
            low += b * (high - low)
            sum += low * low
            n += 1
            if n == frame {
                levels.append(10 * log10(sum / Float(frame) + 1e-10))
                sum = 0
                n = 0
            }
        }
        return levels
    }
}
