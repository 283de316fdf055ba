import CFFmpeg
import GlimtCore

/// libavcodec's decoder for HEIF items: each item is one picture, with the decoder configuration
/// in a property that libavcodec takes as its extradata: HEVC (length-prefixed NAL units, `hvcC`
/// with the parameter sets) or AV1 (OBUs, `av1C`; libdav1d where FFmpeg has it). One decoder serves
/// every item that shares a configuration (a grid's tiles).
final class HEIFItemDecoder {
    enum Codec: Equatable {
        case hevc, av1

        var name: String { self == .hevc ? "HEVC" : "AV1" }
        var configurationBox: String { self == .hevc ? "hvcC" : "av1C" }
    }

    let codec: Codec
    let configuration: [UInt8]
    private let context: UnsafeMutablePointer<AVCodecContext>
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?

    init(codec: Codec, configuration: [UInt8]) throws {
        _ = FFmpegLog.install
        FFmpegLog.clear()
        self.codec = codec
        self.configuration = configuration
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let decoder = avcodec_find_decoder(codec == .hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_AV1) else {
            throw GlimtError("this FFmpeg has no \(codec.name) decoder")
        }
        guard let context = avcodec_alloc_context3(decoder) else { throw GlimtError("out of memory") }
        self.context = context
        // From here deinit runs on a throw and frees the context (with its extradata).
        guard packet != nil, frame != nil,
            let extradata = av_mallocz(configuration.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self)
        else {
            throw GlimtError("out of memory")
        }
        extradata.initialize(from: configuration, count: configuration.count)
        context.pointee.extradata = extradata
        context.pointee.extradata_size = Int32(configuration.count)
        context.pointee.thread_count = 1
        context.pointee.max_pixels = Int64(MediaLimits.maxPixels)
        context.pointee.err_recognition = AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE
        let status = avcodec_open2(context, decoder, nil)
        guard status >= 0 else {
            throw GlimtError(
                "truncated or corrupt HEIF: the \(codec.name) decoder refuses the '\(codec.configurationBox)' configuration: \(ffmpegReason(status))")
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// The picture coded in `data` (item `item`, for messages); valid until the next call.
    func decode(_ data: [UInt8], item: Int) throws -> UnsafeMutablePointer<AVFrame> {
        guard let packet, let frame else { throw GlimtError("out of memory") }
        defer {
            av_packet_unref(packet)
            // Back to a fresh state for the next item: every item is a picture on its own.
            avcodec_flush_buffers(context)
        }
        guard !data.isEmpty else { throw GlimtError("truncated or corrupt HEIF: item \(item) has no data") }
        guard data.count < Int(Int32.max) - Int(AV_INPUT_BUFFER_PADDING_SIZE), av_new_packet(packet, Int32(data.count)) >= 0 else {
            throw GlimtError("out of memory")
        }
        packet.pointee.data.initialize(from: data, count: data.count)
        av_frame_unref(frame)
        FFmpegLog.clear()  // what FFmpeg says next is about this item
        var status = avcodec_send_packet(context, packet)
        if status >= 0 { status = avcodec_send_packet(context, nil) }
        if status >= 0 { status = avcodec_receive_frame(context, frame) }
        guard status >= 0 else {
            let reason = status == glimt_averror_eof() ? "no picture in its data" : ffmpegFailure(status, codec.name)
            throw GlimtError("truncated or corrupt HEIF: item \(item) cannot be decoded: \(reason)")
        }
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            throw GlimtError("truncated or corrupt HEIF: item \(item)'s picture is damaged")
        }
        return frame
    }
}
