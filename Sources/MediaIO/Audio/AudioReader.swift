import CFFmpeg
import GlimtCore

/// Reads the sound of a video as 48 kHz stereo interleaved Float32 (left, right, left, ...),
/// whatever its layout, rate and codec. Mono goes to both sides at full level; 5.1 and other
/// layouts are mixed down by libswresample.
///
/// Times are seconds from the video's start, as `VideoReader` counts them: 0 is the first
/// timestamp of the video stream (`VideoInfo.startTime`), so sound and pictures taken for the
/// same times line up. In a file without video, 0 is where the sound starts.
///
/// `AudioReader(path:)` is nil for a file without sound, so the caller can write silence.
/// Not for sharing between threads.
public final class AudioReader {
    /// The longest stretch one call reads: 10 minutes is 230 MB of samples.
    public static let maxSeconds = 600.0

    public let path: String
    /// FFmpeg's name for the sound's codec, e.g. "aac".
    public let codecName: String
    /// The sound as stored, before resampling.
    public let sourceSampleRate: Int
    public let sourceChannels: Int

    private let streamIndex: Int32
    private var reader: StreamFrameReader
    /// Whether `reader` is still at the start of the file, with nothing read.
    private var atStart = true
    /// The file's time of "0 s", in seconds of its own clock.
    private let origin: Double
    /// The first timestamp of the sound, in seconds of the file's clock.
    private let soundStart: Double
    private let timeline: StreamTimeline

    /// Opens `path`; nil when it has no sound. Throws a one-line `GlimtError` naming the file
    /// for a missing, unreadable or corrupt file, or sound this FFmpeg cannot decode.
    public init?(path: String) throws {
        let input = try MediaInput(path: path)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO) else { return nil }
        let stream = input.stream(index)
        let parameters = stream.pointee.codecpar.pointee
        self.path = path
        streamIndex = index
        codecName = input.codecName(of: index)
        sourceSampleRate = Int(parameters.sample_rate)
        sourceChannels = Int(parameters.ch_layout.nb_channels)
        timeline = StreamTimeline(input: input, streamIndex: index)
        soundStart = timeline.startSeconds
        origin = input.videoStreamIndex.map { StreamTimeline(input: input, streamIndex: $0).startSeconds } ?? soundStart
        reader = try Self.makeReader(input, index)
    }

    private static func makeReader(_ input: MediaInput, _ index: Int32) throws -> StreamFrameReader {
        try StreamFrameReader(input: input, streamIndex: index, setup: .init(threads: 1))
    }

    /// Samples per channel between two times: what `samples(from:to:)` returns, halved.
    public static func frameCount(from start: Double, to end: Double) -> Int {
        Int(((end - start) * Double(AudioFormat.sampleRate)).rounded())
    }

    /// The sound from `start` to `end` seconds: exactly `frameCount(from:to:)` stereo frames,
    /// sample-accurate. Stretches before the sound starts or after it ends come as silence.
    public func samples(from start: Double, to end: Double) throws -> [Float] {
        guard start.isFinite, end.isFinite, end >= start else {
            throw GlimtError("sound range must run forwards, not \(start)...\(end) s", path: path)
        }
        guard end - start <= Self.maxSeconds else {
            throw GlimtError("cannot read more than \(Int(Self.maxSeconds)) s of sound at once (asked for \(end - start) s)", path: path)
        }
        let wanted = Self.frameCount(from: start, to: end)
        if wanted == 0 { return [] }
        FFmpegLog.clear()
        do {
            return try read(from: origin + start, frames: wanted)
        } catch let error as GlimtError {
            throw error.at(path)
        }
    }

    // MARK: Reading

    /// Before the wanted start, a decoder that has just been moved needs sound to settle (AAC
    /// overlaps each frame with the one before): it starts this much earlier.
    private static let preroll = 0.2
    /// Timestamps closer than this to where the samples put them are taken as rounding
    /// (Matroska keeps milliseconds); further apart, a gap or an overlap, where the sound's
    /// clock is taken up afresh.
    private static let slack = 0.01
    private static let slackTicks = Int(slack * Double(AudioFormat.sampleRate))

    /// `frames` stereo frames from `start` (seconds of the file's clock).
    private func read(from start: Double, frames: Int) throws -> [Float] {
        guard let first = Self.tick(start) else { return [Float](repeating: 0, count: frames * AudioFormat.channels) }
        var back = Self.preroll
        while true {
            let fromBeginning = try position(before: start - back)
            if let samples = try decode(from: first, frames: frames, landingChecked: fromBeginning) { return samples }
            back *= 4
        }
    }

    /// Moves the reader to a packet at or before `time`; true when it then reads from the
    /// sound's very beginning, where nothing earlier exists.
    private func position(before time: Double) throws -> Bool {
        let first = time <= soundStart
        if first && atStart { return true }
        if let stamp = timeline.timestamp(fileSeconds: max(time, soundStart)), reader.seek(toKeyframeBefore: stamp) {
            atStart = false
            return first
        }
        // A file that cannot seek is read again from the start, on a fresh demuxer.
        reader = try Self.makeReader(try MediaInput(path: path), streamIndex)
        atStart = true
        return true
    }

    /// Decodes from where the reader stands, into `frames` stereo frames from 48 kHz tick
    /// `first` of the file's clock; nil when the reader stands after that and must go back.
    private func decode(from first: Int, frames: Int, landingChecked: Bool) throws -> [Float]? {
        atStart = false
        var collector = SampleCollector(first: first, frames: frames)
        var resampler: AudioResampler?
        var tick = 0  // the 48 kHz tick of the resampler's next output sample
        var expected = 0.0  // where the next frame is due, in seconds, by the samples so far
        while let frame = try reader.next() {
            let count = Int(frame.pointee.nb_samples), rate = Int(frame.pointee.sample_rate)
            // Before the clock is set, a frame without a timestamp says nothing about where it is.
            guard count > 0, rate > 0, let time = timeline.fileSeconds(of: frame) ?? (resampler != nil ? expected : nil) else { continue }
            if resampler == nil && !landingChecked && (Self.tick(time) ?? .max) > first + Self.slackTicks {
                return nil  // landed after the wanted start (a sparse index): go further back
            }
            if resampler == nil || abs(time - expected) > Self.slack {
                // The first frame, or one after a gap or an overlap, sets the clock afresh.
                if let old = resampler {
                    try old.flush { collector.take($0, at: &tick) }
                    resampler = nil
                }
                guard let sample = Self.sample(time, rate: rate), let startTick = Self.tick(time), startTick < collector.end else { break }
                let fresh = AudioResampler()
                tick = try fresh.start(with: frame, atSample: sample)
                resampler = fresh
                expected = time
            }
            expected += Double(count) / Double(rate)
            try resampler?.convert(frame) { collector.take($0, at: &tick) }
            if tick >= collector.end { return collector.samples }
        }
        try resampler?.flush { collector.take($0, at: &tick) }
        return collector.samples
    }

    /// The 48 kHz tick at `seconds`; nil for a time no video has (a damaged timestamp).
    private static func tick(_ seconds: Double) -> Int? { sample(seconds, rate: AudioFormat.sampleRate) }

    private static func sample(_ seconds: Double, rate: Int) -> Int? {
        let value = (seconds * Double(rate)).rounded()
        // About 100 years at any rate FFmpeg decodes: far from overflowing.
        return abs(value) < 1e15 ? Int(value) : nil
    }
}

/// The wanted stretch of sound, silent until resampled sound lands on it: takes output
/// samples by their 48 kHz tick, keeping those from `first` to `end`.
private struct SampleCollector {
    private(set) var samples: [Float]
    let first: Int
    let end: Int

    init(first: Int, frames: Int) {
        samples = [Float](repeating: 0, count: frames * AudioFormat.channels)
        self.first = first
        end = first + frames
    }

    /// Takes interleaved samples starting at `tick`, and moves `tick` past them.
    mutating func take(_ chunk: UnsafeBufferPointer<Float>, at tick: inout Int) {
        let channels = AudioFormat.channels
        let count = chunk.count / channels
        let from = max(tick, first), to = min(tick + count, end)
        if from < to, let source = chunk.baseAddress {
            samples.withUnsafeMutableBufferPointer { target in
                (target.baseAddress! + (from - first) * channels)
                    .update(from: source + (from - tick) * channels, count: (to - from) * channels)
            }
        }
        tick += count
    }
}
