import CFFmpeg
import GlimtCore

/// The decoded frames of one stream of an opened file, in presentation order.
///
/// Damaged packets in a video are skipped (the decoder conceals what it can); a demuxer that
/// stops on an error rather than at the end means the file is truncated or corrupt, and that
/// is thrown once the frames decoded before it have been handed out.
final class StreamFrameReader {
    let input: MediaInput
    let streamIndex: Int32
    let decoder: StreamDecoder
    private let strict: Bool
    private let keyframesOnly: Bool
    private let keyframeHalf: Int?
    /// Keyframe packets read since opening or the last seek.
    private var keyframesRead = 0
    private let packets: PacketLookahead
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var draining = false
    private var finished = false
    private var rejectedPackets = 0
    private var failedFrames = 0
    private(set) var framesDecoded = 0
    /// Pictures left undecoded because nothing else needs them and `wanted` said no.
    private(set) var picturesSkipped = 0
    private let disposable: DisposablePictures?

    /// Whether the picture at a presentation stamp is wanted, given the stamp shown just before
    /// it (nil: none) and the picture shown just after it, with whether that one is disposable
    /// (nil: not known). Set, it lets the reader leave unwanted pictures that no other picture
    /// needs undecoded (`DisposablePictures`); every picture it decodes is exactly as before.
    var wanted: ((_ stamp: Int64, _ previous: Int64?, _ following: (stamp: Int64, disposable: Bool)?) -> Bool)?

    init(input: MediaInput, streamIndex: Int32, setup: StreamDecoder.Setup) throws {
        self.input = input
        if let bound = setup.options.timeBound { input.limit(to: bound) }
        self.streamIndex = streamIndex
        strict = setup.strict
        keyframesOnly = setup.options.keyframesOnly
        // Checked here, where it is used: the option is a settable property.
        precondition(setup.options.keyframeHalf.map { (0...1).contains($0) } ?? true, "a keyframe half is 0 or 1")
        keyframeHalf = setup.options.keyframesOnly ? setup.options.keyframeHalf : nil
        decoder = try StreamDecoder(stream: input.stream(streamIndex), setup: setup, path: input.path)
        let disposable = setup.options.keyframesOnly ? nil : DisposablePictures(parameters: input.stream(streamIndex).pointee.codecpar)
        self.disposable = disposable
        packets = PacketLookahead(
            input: input, streamIndex: streamIndex,
            disposable: setup.options.sampleReferencePictures ? disposable.map { d in { d.isDisposable($0) } } : nil)
        frame = av_frame_alloc()
        guard frame != nil else { throw GlimtError("out of memory", path: input.path) }
    }

    deinit {
        av_frame_free(&frame)
    }

    var stream: UnsafeMutablePointer<AVStream> { input.stream(streamIndex) }

    /// Seeks to the keyframe at or before `timestamp` (in the stream's time base) and forgets
    /// what the decoder holds. Returns false when the file cannot seek.
    func seek(toKeyframeBefore timestamp: Int64) -> Bool {
        let status = av_seek_frame(input.context, streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        guard status >= 0 else { return false }
        avcodec_flush_buffers(decoder.context)
        packets.reset()
        keyframesRead = 0
        draining = false
        finished = false
        FFmpegLog.clear()
        return true
    }

    /// The next frame, owned by the reader and valid until the next call; nil at the end.
    func next() throws -> UnsafeMutablePointer<AVFrame>? {
        guard let frame else { return nil }
        while !finished {
            // A decoder can spin on packets it rejects without any I/O that the bound would stop.
            try input.checkTimeBound()
            let received = avcodec_receive_frame(decoder.context, frame)
            if received >= 0 {
                framesDecoded += 1
                DecodeCounter.add(1)
                return frame
            }
            if received == glimt_averror_eof() {
                if keyframesOnly && !packets.exhausted {
                    // That keyframe's picture is out: start afresh for the next one.
                    avcodec_flush_buffers(decoder.context)
                    draining = false
                    continue
                }
                finished = true
                break
            }
            if received != glimt_averror_eagain() {
                // A failed frame is consumed by the error; the next call goes on past it.
                failedFrames += 1
                if strict || failedFrames > 1000 { throw damage(received) }
                continue
            }
            if draining {
                finished = true
                break
            }
            // The decoder wants more data.
            let placing = wanted != nil && disposable != nil
            guard let next = try packets.next(placing: placing) else {
                draining = true
                _ = avcodec_send_packet(decoder.context, nil)
                continue
            }
            var packet: UnsafeMutablePointer<AVPacket>? = next.packet
            defer { av_packet_free(&packet) }
            // The decoder would drop it too (skip_frame), but only after parsing it.
            if keyframesOnly && next.packet.pointee.flags & AV_PKT_FLAG_KEY == 0 { continue }
            if let half = keyframeHalf {
                keyframesRead += 1
                if (keyframesRead - 1) % 2 != half { continue }
            }
            // The last picture shown is always decoded: where the frames end says whether the file is whole.
            if placing, next.placed, next.hasLater, let wanted, !wanted(next.packet.pointee.pts, next.previousStamp, next.following),
                disposable?.isDisposable(next.packet) == true
            {
                picturesSkipped += 1
                continue
            }
            let sent = avcodec_send_packet(decoder.context, next.packet)
            if sent < 0 && sent != glimt_averror_eagain() {
                rejectedPackets += 1
                if strict || (framesDecoded == 0 && rejectedPackets > 50) { throw damage(sent) }
            } else if keyframesOnly {
                // Drain at once, so the decoder holds no picture between keyframes (fed only
                // keyframes, HEVC's would otherwise pile up in its picture buffer: 340 MB at 4K).
                _ = avcodec_send_packet(decoder.context, nil)
                draining = true
            }
        }
        if let demuxFailure = packets.failure {
            throw GlimtError("truncated or corrupt: \(demuxFailure)", path: input.path)
        }
        return nil
    }

    private func damage(_ status: Int32) -> GlimtError {
        GlimtError(ffmpegFailure(status, "truncated or corrupt"), path: input.path)
    }
}
