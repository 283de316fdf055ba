import CFFmpeg
import GlimtCore

/// A sound file read once from its start to its end, in order, as 48 kHz stereo interleaved
/// Float32 (`AudioFormat`): music laid under a film, which is heard whole and never sought in.
/// Any container and codec `MediaInput` lets in will do (MP3, AAC or ALAC in M4A, FLAC, WAV,
/// Ogg Vorbis or Opus, a video's soundtrack). Not for sharing between threads.
public final class SoundStream {
    public let path: String
    private let reader: StreamFrameReader
    private let resampler = AudioResampler()
    private var started = false
    private var ended = false
    /// Converted samples not handed out yet, from `taken` on.
    private var pending: [Float] = []
    private var taken = 0

    /// Opens `path`; a missing or unreadable file, or one without sound, is a one-line
    /// `GlimtError` naming it.
    public init(path: String) throws {
        self.path = path
        let input = try MediaInput(path: path, formats: .sound)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO) else { throw GlimtError("has no sound to play", path: path) }
        reader = try StreamFrameReader(input: input, streamIndex: index, setup: .init(threads: 1))
    }

    /// The next `frames` stereo frames; fewer only at the sound's end, and none after it.
    public func read(frames: Int) throws -> [Float] {
        let wanted = frames * AudioFormat.channels
        FFmpegLog.clear()
        do {
            while pending.count - taken < wanted && !ended {
                if taken > 0 {
                    pending.removeFirst(taken)
                    taken = 0
                }
                guard let frame = try reader.next() else {
                    try resampler.flush { pending.append(contentsOf: $0) }
                    ended = true
                    break
                }
                guard frame.pointee.nb_samples > 0 else { continue }
                if !started {
                    _ = try resampler.start(with: frame, atSample: 0)
                    started = true
                }
                try resampler.convert(frame) { pending.append(contentsOf: $0) }
            }
        } catch let error as GlimtError {
            throw error.at(path)
        }
        let n = min(wanted, pending.count - taken)
        defer { taken += n }
        return Array(pending[taken..<(taken + n)])
    }
}
