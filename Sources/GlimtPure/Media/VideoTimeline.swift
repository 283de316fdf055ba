import CFFmpeg

/// A video stream's clock and shape: timestamps to seconds from the stream's start, and the
/// size its pictures are shown at.
struct VideoTimeline {
    let timeBase: AVRational
    /// The stream's first timestamp, in `timeBase` units.
    let origin: Int64
    /// Width over height of one pixel; 1 for almost everything.
    let pixelAspect: Double
    /// The length the stream itself declares (MP4, MOV, AVI do; Matroska and MPEG-TS do not).
    let declaredDuration: Double?
    /// Seconds of one frame at the nominal rate.
    let nominalFrameDuration: Double

    init(input: MediaInput, streamIndex: Int32) {
        let stream = input.stream(streamIndex)
        timeBase = stream.pointee.time_base
        let nopts = glimt_av_nopts_value()
        if stream.pointee.start_time != nopts {
            origin = stream.pointee.start_time
        } else if input.context.pointee.start_time != nopts {
            origin = av_rescale_q(input.context.pointee.start_time, glimt_av_time_base_q(), timeBase)
        } else {
            origin = 0
        }
        var aspect = stream.pointee.sample_aspect_ratio
        if aspect.num <= 0 || aspect.den <= 0 { aspect = stream.pointee.codecpar.pointee.sample_aspect_ratio }
        pixelAspect = aspect.num > 0 && aspect.den > 0 ? av_q2d(aspect) : 1
        let duration = stream.pointee.duration
        declaredDuration = duration != nopts && duration > 0 ? Double(duration) * av_q2d(timeBase) : nil
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        nominalFrameDuration = rate.num > 0 && rate.den > 0 ? 1 / av_q2d(rate) : 1.0 / 30
    }

    var startSeconds: Double { Double(origin) * av_q2d(timeBase) }

    /// Seconds from the stream's start; nil for a frame without any timestamp.
    func seconds(of frame: UnsafePointer<AVFrame>) -> Double? {
        let stamp = frame.pointee.best_effort_timestamp != glimt_av_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        guard stamp != glimt_av_nopts_value() else { return nil }
        return Double(stamp - origin) * av_q2d(timeBase)
    }

    /// When a frame at `time` stops being shown.
    func end(of frame: UnsafePointer<AVFrame>, at time: Double) -> Double {
        let duration = glimt_frame_duration(frame)
        return time + (duration > 0 ? Double(duration) * av_q2d(timeBase) : nominalFrameDuration)
    }

    /// The error for frames that ran out at `lastEnd` (nil: no frame at all) while the stream
    /// declares frames up to `wanted`; nil when nothing is missing or the length is unknown.
    func truncation(lastEnd: Double?, wanted: Double, path: String) -> GlimtError? {
        guard let declared = declaredDuration else { return nil }
        let limit = min(declared, wanted)
        let reached = lastEnd ?? 0
        // Timestamps and durations round; a frame and a half of slack absorbs that.
        guard reached + 1.5 * nominalFrameDuration + 0.05 < limit else { return nil }
        let text = "truncated or corrupt: the video stops at \((reached * 100).rounded() / 100) s of \((declared * 100).rounded() / 100) s"
        return GlimtError(text, path: path)
    }

    /// The timestamp of `seconds` from the stream's start.
    func timestamp(seconds: Double) -> Int64 {
        origin + Int64((seconds / av_q2d(timeBase)).rounded(.down))
    }

    /// The stored size with non-square pixels stretched out (before any rotation).
    func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard abs(pixelAspect - 1) > 1e-6 else { return (width, height) }
        return (max(1, Int((Double(width) * pixelAspect).rounded())), height)
    }

    /// The stored-orientation size to scale a frame to so that its upright long side is at
    /// most `longSide` (never enlarged).
    func scaledSize(width: Int, height: Int, longSide: Int) -> (width: Int, height: Int) {
        let shown = displaySize(width: width, height: height)
        let long = max(shown.width, shown.height)
        guard long > longSide else { return shown }
        let factor = Double(longSide) / Double(long)
        return (max(1, Int((Double(shown.width) * factor).rounded())), max(1, Int((Double(shown.height) * factor).rounded())))
    }
}
