import CFFmpeg
import GlimtCore

/// A stream's clock (video or sound): timestamps to seconds, its rate and length, and for
/// pictures the size they are shown at. The one place where FFmpeg's time bases become seconds.
struct StreamTimeline {
    let timeBase: AVRational
    /// The stream's first timestamp, in `timeBase` units.
    let origin: Int64
    /// Width over height of one pixel; 1 for almost everything.
    let pixelAspect: Double
    /// The length the stream itself declares (MP4, MOV, AVI do; Matroska and MPEG-TS do not).
    let declaredDuration: Double?
    /// Frames per second: the average rate, else the nominal one; 0 when the stream says neither.
    let frameRate: Double
    /// The stream's length: its own, else the container's; 0 when neither is known.
    let duration: Double

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
        let stamps = stream.pointee.duration
        declaredDuration = stamps != nopts && stamps > 0 ? Double(stamps) * av_q2d(timeBase) : nil
        let average = stream.pointee.avg_frame_rate, nominal = stream.pointee.r_frame_rate
        frameRate = average.num > 0 && average.den > 0 ? av_q2d(average) : (nominal.num > 0 && nominal.den > 0 ? av_q2d(nominal) : 0)
        if let declaredDuration {
            self.duration = declaredDuration
        } else if input.context.pointee.duration != nopts && input.context.pointee.duration > 0 {
            let container = Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
            // Matroska's Duration is where the last frame ends on the segment's clock, which may
            // not start at 0 (WebM cut from a stream, `-output_ts_offset`): the video is as long
            // as it plays, from its first frame (5.0 s said of a 2.0 s clip starting at 3.0 s).
            let start = Double(origin) * av_q2d(timeBase)
            let offset = input.demuxerName.hasPrefix("matroska") && start > 0 && start < container ? start : 0
            self.duration = container - offset
        } else {
            self.duration = 0
        }
    }

    /// Seconds of one frame at the stream's rate (a 30 fps guess when it has none).
    var nominalFrameDuration: Double { frameRate > 0 ? 1 / frameRate : 1.0 / 30 }

    var startSeconds: Double { Double(origin) * av_q2d(timeBase) }

    /// Seconds from the stream's start; nil for a frame without any timestamp.
    func seconds(of frame: UnsafePointer<AVFrame>) -> Double? {
        stamp(of: frame).map(seconds(ofStamp:))
    }

    /// Seconds from the stream's start of a timestamp in the stream's time base.
    func seconds(ofStamp stamp: Int64) -> Double {
        Double(stamp - origin) * av_q2d(timeBase)
    }

    /// Seconds of the file's own clock at which `frame` starts; nil without a usable timestamp.
    func fileSeconds(of frame: UnsafePointer<AVFrame>) -> Double? {
        guard let stamp = stamp(of: frame) else { return nil }
        let seconds = Double(stamp) * av_q2d(timeBase)
        return seconds.isFinite ? seconds : nil
    }

    /// A frame's presentation stamp: FFmpeg's best effort, else its own.
    func stamp(of frame: UnsafePointer<AVFrame>) -> Int64? {
        let stamp = frame.pointee.best_effort_timestamp != glimt_av_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        return stamp != glimt_av_nopts_value() ? stamp : nil
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

    /// The timestamp of `seconds` of the file's clock; nil where it would not fit.
    func timestamp(fileSeconds: Double) -> Int64? {
        let stamp = fileSeconds / av_q2d(timeBase)
        return abs(stamp) < 9e18 ? Int64(stamp.rounded(.down)) : nil
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
