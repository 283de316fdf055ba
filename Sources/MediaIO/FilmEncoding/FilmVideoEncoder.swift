import CFFmpeg
import Foundation
import GlimtCore
import Imaging

/// The film's picture encoder: RGB frames to H.264 High, yuv420p limited range, tagged BT.709,
/// one frame per tick of `1/fps`.
final class FilmVideoEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let width: Int
    let height: Int
    private var yuv: UnsafeMutablePointer<AVFrame>?
    private let converter = PixelConverter(unlabelled: .video, accurateRounding: true)
    private(set) var framesSent = 0

    init(width: Int, height: Int, fps: Int, quality: FilmQuality, globalHeader: Bool, path: String) throws {
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw GlimtError("this FFmpeg has no libx264 encoder, needed to write H.264", path: path)
        }
        guard let context = avcodec_alloc_context3(codec) else { throw GlimtError("out of memory", path: path) }
        self.context = context
        self.width = width
        self.height = height
        yuv = av_frame_alloc()
        // Every property is set by now, so a throw still runs deinit, which frees everything.
        guard let yuv else { throw GlimtError("out of memory", path: path) }

        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: Int32(fps))
        context.pointee.framerate = AVRational(num: Int32(fps), den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // A keyframe about every 2 s: seeking in a player stays quick, and files stay small.
        context.pointee.gop_size = Int32(2 * fps)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        // libx264 takes thread_count literally and libavcodec's default is 1: one per core, at
        // most 4, on slices of the same frame (below), which hold no frames of their own.
        context.pointee.thread_count = Int32(min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }

        var options: OpaquePointer?
        av_dict_set(&options, "preset", quality.preset, 0)
        av_dict_set(&options, "crf", String(quality.crf), 0)
        av_dict_set(&options, "profile", "high", 0)
        // x264 signals the lowest profile its tools need; the fast presets turn off the 8x8
        // transform and CABAC and would write Constrained Baseline. Both on keeps every film High.
        // A lookahead of 3 frames (medium's B-frame count) instead of medium's 40: x264 holds
        // every frame it looks ahead at (about 7-9 MB each at 1080x1920), and a film of 1-second
        // cuts gains nothing from looking further but hundreds of MB of memory (CHANGELOG.md has
        // the measurements). Sliced threads: frame threads each hold frames of their own, slices
        // of one frame share it.
        av_dict_set(&options, "x264-params", "8x8dct=1:cabac=1:rc-lookahead=3:sliced-threads=1", 0)
        let opened = avcodec_open2(context, codec, &options)
        av_dict_free(&options)
        guard opened >= 0 else { throw GlimtError("cannot start the H.264 encoder: \(ffmpegReason(opened))", path: path) }

        yuv.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        yuv.pointee.width = Int32(width)
        yuv.pointee.height = Int32(height)
        yuv.pointee.color_primaries = AVCOL_PRI_BT709
        yuv.pointee.color_trc = AVCOL_TRC_BT709
        yuv.pointee.colorspace = AVCOL_SPC_BT709
        yuv.pointee.color_range = AVCOL_RANGE_MPEG
        guard av_frame_get_buffer(yuv, 64) >= 0 else {
            throw GlimtError("out of memory for a \(width)x\(height) film", path: path)
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        av_frame_free(&yuv)
    }

    /// Converts `image` (already the film's size) and hands it to x264 as the next frame.
    func send(_ image: RGBImage) throws {
        guard let yuv else { return }
        // x264 may still hold the previous frame: this gives us fresh buffers if so.
        guard av_frame_make_writable(yuv) >= 0 else { throw GlimtError("out of memory") }
        try converter.convert(image, into: yuv)
        yuv.pointee.pts = Int64(framesSent)
        let status = avcodec_send_frame(context, yuv)
        guard status >= 0 else { throw GlimtError("cannot encode the film: \(ffmpegReason(status))") }
        framesSent += 1
    }

    /// Tells x264 there are no more frames, so it gives out the ones it holds back.
    func sendEnd() throws {
        let status = avcodec_send_frame(context, nil)
        guard status >= 0 || status == glimt_averror_eof() else {
            throw GlimtError("cannot encode the film: \(ffmpegReason(status))")
        }
    }
}
