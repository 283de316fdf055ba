import CFFmpeg
import Foundation
import GlimtCore

/// An opened FFmpeg decoder for one stream.
final class StreamDecoder {
    struct Setup {
        var threads = 0
        /// Stills: any damage is an error. Video: damaged frames are skipped.
        var strict = false
        var maxPixels = 0
        var options = VideoDecodeOptions()
        /// FFmpeg's port of the IJG integer IDCT instead of its own simple IDCT, for the JPEGs
        /// `JPEGPlanes` leaves to FFmpeg: 0.02-0.05 levels from libjpeg's pixels on average
        /// instead of 0.02-0.26 (it runs rows before columns: not quite libjpeg's rounding).
        var jpegIntegerIDCT = false
    }

    let context: UnsafeMutablePointer<AVCodecContext>

    /// Every frame thread keeps pictures of its own in flight (a 4K 10-bit one is 25 MB): 4K
    /// decodes on at most 2 frame threads, larger on 1 (and slice threads, one per core, when
    /// the caller left the count to us), so memory stays bounded whatever the source (on 4K
    /// HEVC 10-bit each thread fewer saved its pictures' memory for the same CPU time).
    /// `requested` 0 means FFmpeg's choice.
    static func threads(_ requested: Int, width: Int, height: Int) -> Int {
        let pixels = width * height
        let cap = pixels > MediaLimits.uhdPixels ? 1 : pixels > MediaLimits.fullHDPixels ? 2 : Int.max
        return requested == 0 ? (cap == Int.max ? 0 : cap) : min(requested, cap)
    }

    init(stream: UnsafeMutablePointer<AVStream>, setup: Setup, path: String) throws {
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw GlimtError("this FFmpeg has no decoder for \(name)", path: path)
        }
        guard let context = avcodec_alloc_context3(codec) else { throw GlimtError("out of memory", path: path) }
        self.context = context
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base
            let frameThreads = Self.threads(setup.threads, width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
            // Beyond 4K a single frame thread is all memory allows, and slice threads cost none.
            if setup.options.sliceThreadsOnly || (frameThreads == 1 && setup.threads == 0) {
                // Slice threads add no picture, whatever the size. One per core, not FFmpeg's
                // choice of one more: beside the thread that measures or encodes, the extra one
                // stalled the others' rows.
                context.pointee.thread_count = Int32(clamping: setup.threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : setup.threads)
                context.pointee.thread_type = FF_THREAD_SLICE
            } else {
                context.pointee.thread_count = Int32(frameThreads)
                context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            }
            if setup.maxPixels > 0 { context.pointee.max_pixels = Int64(setup.maxPixels) }
            if setup.jpegIntegerIDCT { context.pointee.idct_algo = FF_IDCT_INT }
            if setup.strict { context.pointee.err_recognition = AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE }
            if setup.options.skipLoopFilter { context.pointee.skip_loop_filter = AVDISCARD_ALL }
            if setup.options.fastDecoding { context.pointee.flags2 |= AV_CODEC_FLAG2_FAST }
            if setup.options.skipNonReferenceFrames { context.pointee.skip_frame = AVDISCARD_NONREF }
            if setup.options.keyframesOnly { context.pointee.skip_frame = AVDISCARD_NONKEY }
            status = avcodec_open2(context, codec, nil)
        }
        // Every property is set by now, so a throw still runs deinit, which frees the context.
        if status < 0 {
            throw GlimtError("cannot start the \(String(cString: codec.pointee.name)) decoder: \(ffmpegReason(status))", path: path)
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
    }
}
