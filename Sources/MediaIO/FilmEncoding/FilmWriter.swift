import CFFmpeg
import GlimtCore
import Imaging

/// Writes the film: an MP4 with one H.264 picture stream (High profile, yuv420p, BT.709,
/// constant `fps`) and, if asked, one AAC sound stream (48 kHz stereo, 160 kb/s), with the
/// index at the front so players can start before the whole file has arrived.
///
/// Writes exactly to `path`: the caller passes a temporary name and renames the finished
/// file into place. Frame `i` is shown at `i / fps` seconds. The sound always ends with the
/// pictures: at `finish()` it is padded with silence or cut to the film's length.
///
/// Stopped before `finish()` (by an error, `cancel()` or being dropped), the writer frees
/// everything and leaves whatever it wrote at `path` for the caller to delete. After an error
/// it only repeats that error. Not for sharing between threads.
public final class FilmWriter {

    public let path: String
    public let width: Int
    public let height: Int
    public let fps: Int
    public let hasAudio: Bool
    public let quality: FilmQuality
    public private(set) var framesWritten = 0

    private var muxer: FilmMuxer?
    private var video: FilmVideoEncoder?
    private var audio: FilmAudioEncoder?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var videoStream: Int32 = 0
    private var audioStream: Int32 = 0
    private var stopped: GlimtError?

    /// Opens `path` for writing (replacing any file there). `width` and `height` must be even:
    /// yuv420p keeps one colour sample per 2x2 pixels. `tags` go into the container's metadata.
    public init(
        path: String, width: Int, height: Int, fps: Int, audio: Bool = true, quality: FilmQuality = .standard,
        tags: [String: String] = [:]
    ) throws {
        self.path = path
        self.width = width
        self.height = height
        self.fps = fps
        self.hasAudio = audio
        self.quality = quality
        if let problem = FilmFormat.problem(width: width, height: height, fps: fps) ?? quality.problem {
            throw GlimtError(problem, path: path)
        }
        // Every property is set by now, so a throw below still runs deinit, which frees everything.
        let muxer = try FilmMuxer(path: path)
        self.muxer = muxer
        packet = av_packet_alloc()
        guard packet != nil else { throw GlimtError("out of memory", path: path) }
        let video = try FilmVideoEncoder(width: width, height: height, fps: fps, quality: quality, globalHeader: muxer.wantsGlobalHeaders, path: path)
        self.video = video
        videoStream = try muxer.addStream(for: video.context)
        if audio {
            let sound = try FilmAudioEncoder(globalHeader: muxer.wantsGlobalHeaders, path: path)
            self.audio = sound
            audioStream = try muxer.addStream(for: sound.context)
        }
        muxer.tag(tags)
        try muxer.writeHeader()
    }

    deinit { release() }

    /// Seconds of film written so far.
    public var duration: Double { Double(framesWritten) / Double(fps) }

    /// Samples per channel of sound that `frames` frames at `fps` last, rounded.
    public static func audioSamples(forFrames frames: Int, fps: Int) -> Int {
        fps > 0 ? (frames * AudioFormat.sampleRate + fps / 2) / fps : 0
    }

    /// Encodes the next frame, which must be the film's size.
    public func append(_ frame: RGBImage) throws {
        try running { muxer, packet in
            guard frame.width == width, frame.height == height else {
                throw GlimtError("a \(frame.width)x\(frame.height) frame cannot go into a \(width)x\(height) film")
            }
            guard let video else { return }
            try video.send(frame)
            framesWritten += 1
            try muxer.drain(video.context, into: videoStream, packet: packet, duration: 1)
            try sendAudio(muxer, packet)
        }
    }

    /// Adds sound: interleaved stereo (left, right, left, ...) at 48 kHz, full scale ±1, in
    /// chunks of any size. Sound runs on from where the last chunk ended, whatever the frames.
    public func appendAudio(_ samples: [Float]) throws {
        try running { muxer, packet in
            guard let audio else { throw GlimtError("this film was opened without sound") }
            guard samples.count % AudioFormat.channels == 0 else {
                throw GlimtError("stereo sound needs an even number of samples, not \(samples.count)")
            }
            audio.append(samples)
            try sendAudio(muxer, packet)
        }
    }

    /// Flushes the encoders, evens the sound up with the pictures and writes the index. The
    /// file is complete when this returns.
    public func finish() throws {
        try running { muxer, packet in
            guard framesWritten > 0 else { throw GlimtError("cannot finish a film without any frames") }
            guard let video else { return }
            try video.sendEnd()
            try muxer.drain(video.context, into: videoStream, packet: packet, duration: 1)
            if let audio {
                let total = Self.audioSamples(forFrames: framesWritten, fps: fps)
                try audio.finish(total: total) { try muxer.drain(audio.context, into: audioStream, packet: packet) }
                try muxer.drain(audio.context, into: audioStream, packet: packet)
            }
            try muxer.finish()
        }
        stopped = GlimtError("the film is already finished", path: path)
        release()
    }

    /// Stops without finishing: frees everything and leaves the partial file at `path`.
    public func cancel() {
        if stopped == nil { stopped = GlimtError("the film was cancelled", path: path) }
        release()
    }

    /// Runs one step, turning any failure into the writer's last word.
    private func running(_ step: (FilmMuxer, UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        if let stopped { throw stopped }
        guard let muxer, let packet else { throw GlimtError("the film writer is closed", path: path) }
        FFmpegLog.clear()
        do {
            try step(muxer, packet)
        } catch let error as GlimtError {
            let named = error.at(path)
            stopped = named
            release()
            throw named
        }
    }

    private func sendAudio(_ muxer: FilmMuxer, _ packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let audio else { return }
        let limit = Self.audioSamples(forFrames: framesWritten, fps: fps)
        try audio.send(upTo: limit) { try muxer.drain(audio.context, into: audioStream, packet: packet) }
    }

    private func release() {
        video = nil
        audio = nil
        muxer = nil
        av_packet_free(&packet)
    }
}
