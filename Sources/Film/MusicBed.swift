import Foundation
import GlimtCore
import MediaIO

/// The music under a film: its files played in turn and from the first again until the film
/// ends (where it is cut), brought to one loudness, faded in at the film's start and out at its
/// end, and lowered under the film's speech (`Ducking`). Continuous across the film's joins, so
/// it adds no clicks there; each file's start is faded in over `joinFade`, so a loop's join does
/// not click either.
public final class MusicBed {
    /// At most this long, and an eighth of the film, each.
    static let fadeIn = 1.0
    static let fadeOut = 2.0
    static let joinFade = 0.01
    /// The least sound a music file must hold: shorter, looping it would buzz.
    static let shortest = 0.1
    /// Loudness is measured over blocks this long (as EBU R 128 does, without its weighting):
    /// blocks under -70 dBFS are silence, then blocks 10 dB under the mean of the rest are the
    /// quiet between notes, and neither counts.
    static let block = 0.4

    private let filmFrames: Int
    private var ducking: Ducking
    private var gain: Float = 1
    private var played = 0
    private var sequence: Sequence

    /// Checks that each of `paths` can be played, reading its first moments: a missing,
    /// unreadable or soundless file is one line naming it, before a film is started.
    public static func check(_ paths: [String]) throws {
        for path in paths {
            let frames = try SoundStream(path: path).read(frames: Int(shortest * Double(AudioFormat.sampleRate))).count / AudioFormat.channels
            guard Double(frames) >= shortest * Double(AudioFormat.sampleRate) else {
                throw GlimtError(
                    String(format: "holds %.3f s of sound, too little to play under a film", Double(frames) / Double(AudioFormat.sampleRate)),
                    path: path)
            }
        }
    }

    /// Music for a film of `filmFrames` stereo frames, at `level` dBFS of loudness, lowered under
    /// `speech` (seconds of the film).
    init(paths: [String], level: Double, filmFrames: Int, speech: [Range<Double>]) throws {
        precondition(!paths.isEmpty)
        self.filmFrames = filmFrames
        ducking = Ducking(speech: speech)
        sequence = Sequence(paths: paths)
        // Measured over what the film will play: a song's quiet opening under a short film is heard as it is.
        let measured = try Self.loudness(of: Sequence(paths: paths), frames: filmFrames)
        if let measured { gain = powf(10, Float(level - measured) / 20) }
    }

    /// The next `count` stereo frames of the music, at its level, faded and ducked.
    func next(_ count: Int) throws -> [Float] {
        var out = try sequence.read(count)
        let rate = Double(AudioFormat.sampleRate)
        let fadeIn = min(Self.fadeIn * rate, Double(filmFrames) / 8), fadeOut = min(Self.fadeOut * rate, Double(filmFrames) / 8)
        let ducked = ducking.gains(first: played, count: count, rate: AudioFormat.sampleRate)
        for i in 0..<count {
            let p = Double(played + i)
            let edge = min(1, p / max(fadeIn, 1), (Double(filmFrames) - p) / max(fadeOut, 1))
            let g = gain * ducked[i] * Float(smooth(max(0, min(1, edge))))
            out[2 * i] *= g
            out[2 * i + 1] *= g
        }
        played += count
        return out
    }

    private func smooth(_ x: Double) -> Double { x * x * (3 - 2 * x) }

    /// The loudness (dBFS) of the first `frames` stereo frames `sequence` plays; nil for silence.
    static func loudness(of sequence: Sequence, frames: Int) throws -> Double? {
        let blockFrames = Int(block * Double(AudioFormat.sampleRate))
        var blocks: [Double] = []
        var left = frames
        var wrapped = false
        while left > 0 && !wrapped {
            let chunk = try sequence.read(min(blockFrames, left))
            var sum = 0.0
            for s in chunk { sum += Double(s * s) }
            blocks.append(sum / Double(chunk.count))
            left -= chunk.count / AudioFormat.channels
            // One round is all there is to hear.
            wrapped = sequence.loops > 0
        }
        let loud = blocks.filter { $0 > 1e-7 }
        guard !loud.isEmpty else { return nil }
        let bar = loud.reduce(0, +) / Double(loud.count) / 10
        let heard = loud.filter { $0 > bar }
        return 10 * log10(heard.reduce(0, +) / Double(heard.count))
    }

    /// The files in turn, round and round.
    final class Sequence {
        let paths: [String]
        private var index = 0
        private var stream: SoundStream?
        private var fileFrames = 0
        /// How many times the last file has ended.
        private(set) var loops = 0

        init(paths: [String]) { self.paths = paths }

        func read(_ count: Int) throws -> [Float] {
            var out: [Float] = []
            out.reserveCapacity(count * AudioFormat.channels)
            var silentRound = true
            while out.count < count * AudioFormat.channels {
                if stream == nil {
                    stream = try SoundStream(path: paths[index])
                    fileFrames = 0
                }
                var piece = try stream!.read(frames: count - out.count / AudioFormat.channels)
                if piece.isEmpty {
                    stream = nil
                    index += 1
                    if index == paths.count {
                        index = 0
                        loops += 1
                        // `check` makes sure this never happens: a round with no sound at all.
                        if silentRound { return out + [Float](repeating: 0, count: count * AudioFormat.channels - out.count) }
                        silentRound = true
                    }
                    continue
                }
                silentRound = false
                let fade = Int(MusicBed.joinFade * Double(AudioFormat.sampleRate))
                var k = 0
                while fileFrames + k < fade && 2 * k < piece.count {
                    let g = Float(fileFrames + k) / Float(fade)
                    piece[2 * k] *= g
                    piece[2 * k + 1] *= g
                    k += 1
                }
                fileFrames += piece.count / AudioFormat.channels
                out += piece
            }
            return out
        }
    }
}
