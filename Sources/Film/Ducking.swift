import Foundation

/// How the music is lowered while someone speaks in the film's own sound, so the words stay on
/// top: by `depth` dB, reached `attack` seconds before the first word (the film's speech is known
/// before it plays, so no word starts over loud music), held `hold` seconds after the last, and
/// brought back up over `release` seconds (slower than it went down, so the music does not pump
/// between phrases). The level moves in straight lines of dB, which the ear hears as even.
struct Ducking {
    /// 12 dB is what broadcast mixes lower a music bed by under a voice: plainly in the background,
    /// still heard.
    static let depth: Float = 12
    static let attack = 0.15
    static let hold = 0.15
    static let release = 0.5

    /// Where the film's own sound has speech, in seconds of the film, ascending and apart.
    let speech: [Range<Double>]
    private var level: Float = 0
    private var run = 0

    init(speech: [Range<Double>]) { self.speech = speech }

    /// The music's gain for `count` stereo frames from frame `first` of the film (at `rate` Hz).
    /// Called for the film's frames in order.
    mutating func gains(first: Int, count: Int, rate: Int) -> [Float] {
        let down = Self.depth / Float(Self.attack * Double(rate)), up = Self.depth / Float(Self.release * Double(rate))
        var out = [Float](repeating: 1, count: count)
        for i in 0..<count {
            let t = Double(first + i) / Double(rate)
            while run < speech.count && speech[run].upperBound + Self.hold <= t { run += 1 }
            let ducked = run < speech.count && t >= speech[run].lowerBound - Self.attack
            level = ducked ? max(level - down, -Self.depth) : min(level + up, 0)
            if level < 0 { out[i] = powf(10, level / 20) }
        }
        return out
    }
}
