import CFFmpeg
import GlimtCore

/// The film's sound encoder: 48 kHz stereo float, interleaved, in chunks of any size, to AAC
/// (FFmpeg's own encoder) in the fixed frames it takes.
///
/// Samples wait here until the picture has caught up with them (`send(upTo:)`), so that at
/// the end any sound past the last picture can still be cut rather than already encoded.
final class FilmAudioEncoder {

    let context: UnsafeMutablePointer<AVCodecContext>
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// Samples per channel in each frame the encoder takes (1024 for AAC).
    private let frameSize: Int
    /// Whether the encoder accepts a shorter last frame; if not, the end is padded to a whole one.
    private let takesShortLastFrame: Bool
    /// Interleaved samples not yet encoded, from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    /// Samples per channel handed to the encoder so far.
    private(set) var samplesSent = 0

    init(globalHeader: Bool, path: String) throws {
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw GlimtError("this FFmpeg has no aac encoder", path: path)
        }
        guard let context = avcodec_alloc_context3(codec) else { throw GlimtError("out of memory", path: path) }
        self.context = context
        frame = av_frame_alloc()
        frameSize = 1024
        takesShortLastFrame = codec.pointee.capabilities & AV_CODEC_CAP_SMALL_LAST_FRAME != 0
        // Every property is set by now, so a throw still runs deinit, which frees everything.
        guard let frame else { throw GlimtError("out of memory", path: path) }

        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(AudioFormat.channels))
        context.pointee.bit_rate = 160_000
        context.pointee.time_base = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw GlimtError("cannot start the AAC encoder: \(ffmpegReason(opened))", path: path) }
        guard context.pointee.frame_size == Int32(frameSize) else {
            throw GlimtError("the AAC encoder asks for frames of \(context.pointee.frame_size) samples, not \(frameSize)", path: path)
        }

        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        frame.pointee.nb_samples = Int32(frameSize)
        guard av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout) >= 0,
            av_frame_get_buffer(frame, 0) >= 0
        else {
            throw GlimtError("out of memory", path: path)
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        av_frame_free(&frame)
    }

    /// Samples per channel appended and not yet encoded.
    var samplesWaiting: Int { (pending.count - pendingStart) / AudioFormat.channels }

    /// Keeps interleaved stereo samples for encoding. The AAC encoder refuses NaN and infinity,
    /// and anything past full scale would clip on playback anyway, so both are tamed here.
    func append(_ samples: [Float]) {
        pending.reserveCapacity(pending.count + samples.count)
        for sample in samples {
            pending.append(sample.isNaN ? 0 : min(max(sample, -1), 1))
        }
    }

    /// Encodes whole frames while they end at or before `limit` samples per channel.
    func send(upTo limit: Int, then write: () throws -> Void) throws {
        while samplesWaiting >= frameSize && samplesSent + frameSize <= limit {
            try sendFrame(count: frameSize)
            try write()
        }
        compact()
    }

    /// Cuts or pads the sound to exactly `total` samples per channel, encodes the rest and
    /// tells the encoder there is no more.
    func finish(total: Int, then write: () throws -> Void) throws {
        let wanted = max(0, total - samplesSent) * AudioFormat.channels
        let waiting = pending.count - pendingStart
        if waiting > wanted {
            pending.removeLast(waiting - wanted)
        } else {
            pending.append(contentsOf: repeatElement(0, count: wanted - waiting))
        }
        while samplesWaiting > 0 {
            let count = min(samplesWaiting, frameSize)
            if count < frameSize && !takesShortLastFrame {
                pending.append(contentsOf: repeatElement(0, count: (frameSize - count) * AudioFormat.channels))
                continue
            }
            try sendFrame(count: count)
            try write()
        }
        let status = avcodec_send_frame(context, nil)
        guard status >= 0 || status == glimt_averror_eof() else {
            throw GlimtError("cannot encode the film's sound: \(ffmpegReason(status))")
        }
    }

    private func sendFrame(count: Int) throws {
        guard let frame else { return }
        frame.pointee.nb_samples = Int32(frameSize)
        // The encoder may still hold the previous frame: this gives us fresh buffers if so.
        guard av_frame_make_writable(frame) >= 0 else { throw GlimtError("out of memory") }
        frame.pointee.nb_samples = Int32(count)
        let left = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
        let right = UnsafeMutableRawPointer(frame.pointee.data.1!).assumingMemoryBound(to: Float.self)
        pending.withUnsafeBufferPointer { samples in
            for i in 0..<count {
                left[i] = samples[pendingStart + 2 * i]
                right[i] = samples[pendingStart + 2 * i + 1]
            }
        }
        pendingStart += count * AudioFormat.channels
        frame.pointee.pts = Int64(samplesSent)
        let status = avcodec_send_frame(context, frame)
        guard status >= 0 else { throw GlimtError("cannot encode the film's sound: \(ffmpegReason(status))") }
        samplesSent += count
    }

    /// Forgets sent samples once they are most of the buffer, so appending stays cheap.
    private func compact() {
        if pendingStart > 0 && pendingStart * 2 >= pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }
}
