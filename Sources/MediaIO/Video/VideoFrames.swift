import CFFmpeg
import GlimtCore
import Imaging

/// Every frame shown in `[start, end)` at full resolution, upright; made by
/// `VideoReader.frames(from:to:depth:options:)`. Where a variable-rate video has a gap across
/// `start` (nothing new from 0.33 s to 2.4 s), or `start` lies in the last frame's time, the
/// first is the frame on screen at `start`, the last one before it: a second, a thumbnail and a
/// preview cut there show what a player shows.
///
/// Seeks to the keyframe at or before `start` and decodes forward, dropping the frames before
/// `start`. When a demuxer's seek lands after `start` (a sparse or wrong index), it seeks again
/// further back, and in the end decodes from the beginning.
public final class VideoFrames {
    private let openInput: () throws -> MediaInput
    private let streamIndex: Int32
    private let options: VideoDecodeOptions
    private var reader: StreamFrameReader
    private let timeline: StreamTimeline
    private let orientation: ImageOrientation
    private let sixteenBit: Bool
    private let converter: PixelConverter
    private let start: Double
    private let end: Double
    private let region: FrameRegion?
    private var seekBack = 0.0
    private var checkedLanding = false
    private var done = false
    private var lastEnd: Double?
    /// The last frame before `start` (still on screen at `start` until a later one comes), and a
    /// frame read past it that waits while the held one is handed out first.
    private var held: (frame: UnsafeMutablePointer<AVFrame>, time: Double)?
    private var waiting: (frame: UnsafeMutablePointer<AVFrame>, time: Double)?
    private var handedOut = false

    init(
        input: MediaInput, reopen: @escaping () throws -> MediaInput, streamIndex: Int32, info: VideoInfo,
        from start: Double, to end: Double, depth: FrameDepth, options: VideoDecodeOptions, region: FrameRegion? = nil
    ) throws {
        guard start.isFinite, end.isFinite, end > start else {
            throw GlimtError("frame range must run forwards, not \(start)...\(end) s", path: input.path)
        }
        openInput = reopen
        self.streamIndex = streamIndex
        self.options = options
        reader = try Self.makeReader(input, streamIndex, options)
        timeline = StreamTimeline(input: input, streamIndex: streamIndex)
        converter = PixelConverter(unlabelled: .video, accurateRounding: options.accurateRounding ?? true)
        orientation = info.orientation
        sixteenBit = depth == .source && info.bitDepth > 8
        self.start = max(0, start)
        self.end = end
        self.region = region
        if self.start > 0 && !reader.seek(toKeyframeBefore: timeline.timestamp(seconds: self.start)) {
            checkedLanding = true  // cannot seek: decoding from the beginning is all there is
        }
    }

    deinit {
        release(&held)
        release(&waiting)
    }

    private func release(_ slot: inout (frame: UnsafeMutablePointer<AVFrame>, time: Double)?) {
        guard let f = slot else { return }
        var owned: UnsafeMutablePointer<AVFrame>? = f.frame
        av_frame_free(&owned)
        slot = nil
    }

    private func keep(
        _ frame: UnsafeMutablePointer<AVFrame>, _ time: Double, in slot: inout (frame: UnsafeMutablePointer<AVFrame>, time: Double)?
    ) throws {
        release(&slot)
        guard let copy = av_frame_clone(frame) else { throw GlimtError("out of memory", path: reader.input.path) }
        slot = (copy, time)
    }

    private static func makeReader(_ input: MediaInput, _ streamIndex: Int32, _ options: VideoDecodeOptions) throws -> StreamFrameReader {
        try StreamFrameReader(
            input: input, streamIndex: streamIndex, setup: .init(threads: options.threads, maxPixels: MediaLimits.maxPixels, options: options))
    }

    /// The next frame in the range, or nil after the last. Throws if the file turns out
    /// truncated or corrupt, after the frames before the damage have been returned.
    public func next() throws -> VideoFrame? {
        if let w = waiting {
            defer { release(&waiting) }
            return try picture(w.frame, time: w.time)
        }
        let tolerance = SampledFrames.tolerance
        while !done, let frame = try reader.next() {
            guard let time = timeline.seconds(of: frame) else { continue }
            if !checkedLanding {
                checkedLanding = true
                if time > start + tolerance && start > 0 {
                    release(&held)
                    try seekFurtherBack()
                    continue
                }
            }
            lastEnd = timeline.end(of: frame, at: time)
            if time + tolerance < start {
                try keep(frame, time, in: &held)
                continue
            }
            // Nothing new within a frame of `start` (a gap in a variable-rate video): the frame
            // before it is what is on screen there. Within a frame, the range starts with the
            // next frame, as it always has: a clip's cut and its picks stay where they were.
            if !handedOut, let h = held, time > start + timeline.nominalFrameDuration + tolerance {
                if time + tolerance >= end { done = true } else { try keep(frame, time, in: &waiting) }
                defer { release(&held) }
                handedOut = true
                return try picture(h.frame, time: h.time)
            }
            if time + tolerance >= end {
                done = true
                return nil
            }
            handedOut = true
            release(&held)
            return try picture(frame, time: time)
        }
        if !done, !handedOut, let h = held, start < timeline.declaredDuration ?? lastEnd ?? 0 {
            // The range starts after the last frame's start but inside the video: that frame is
            // still on screen there, unless the file stops short of the range (cut, not ended).
            done = true
            if let error = timeline.truncation(lastEnd: lastEnd, wanted: start, path: reader.input.path) { throw error }
            defer { release(&held) }
            handedOut = true
            return try picture(h.frame, time: h.time)
        }
        if !done, let error = timeline.truncation(lastEnd: lastEnd, wanted: end, path: reader.input.path) {
            done = true
            throw error
        }
        done = true
        return nil
    }

    /// A decoded frame as the range hands it out: upright, at its shown size, or the region.
    private func picture(_ frame: UnsafeMutablePointer<AVFrame>, time: Double) throws -> VideoFrame {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let size = timeline.displaySize(width: width, height: height)
        do {
            if let region { return VideoFrame(time: time, picture: try convert(frame, region: region, shown: size)) }
            if sixteenBit {
                let stored = try converter.rgb16Image(from: frame, width: size.width, height: size.height)
                return VideoFrame(time: time, picture: .rgb16(orientation.apply(to: stored)))
            }
            let stored = try converter.rgbImage(from: frame, width: size.width, height: size.height)
            return VideoFrame(time: time, picture: .rgb8(orientation.apply(to: stored)))
        } catch let error as GlimtError {
            throw error.at(reader.input.path)
        }
    }

    /// Only the stored pixels under the region's crop, converted straight to the region's size
    /// and then turned upright.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, region: FrameRegion, shown: (width: Int, height: Int)) throws -> VideoPicture {
        let coded = (width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        let upright = orientation.uprightSize(width: shown.width, height: shown.height)
        let c = region.crop
        let x = min(max(0, Int(c.x.rounded())), upright.width - 1), y = min(max(0, Int(c.y.rounded())), upright.height - 1)
        let w = max(1, min(Int(c.width.rounded()), upright.width - x)), h = max(1, min(Int(c.height.rounded()), upright.height - y))
        let r = orientation.storedRect(x: x, y: y, width: w, height: h, storedWidth: shown.width, storedHeight: shown.height)
        // Non-square pixels: the shown picture is the coded one stretched sideways.
        let across = Double(coded.width) / Double(shown.width)
        let left = min(coded.width - 1, Int(Double(r.x) * across))
        let cropWidth = max(1, min(coded.width - left, Int((Double(r.width) * across).rounded())))
        guard let part = av_frame_clone(frame) else { throw GlimtError("out of memory") }
        var owned: UnsafeMutablePointer<AVFrame>? = part
        defer { av_frame_free(&owned) }
        part.pointee.crop_left = left
        part.pointee.crop_right = coded.width - left - cropWidth
        part.pointee.crop_top = r.y
        part.pointee.crop_bottom = coded.height - r.y - r.height
        guard av_frame_apply_cropping(part, Int32(AV_FRAME_CROP_UNALIGNED)) >= 0 else {
            throw GlimtError("cannot cut the crop \(x),\(y) \(w)x\(h) from a \(coded.width)x\(coded.height) picture")
        }
        let out = orientation.swapsSides ? (region.height, region.width) : (region.width, region.height)
        if sixteenBit { return .rgb16(orientation.apply(to: try converter.rgb16Image(from: part, width: out.0, height: out.1))) }
        return .rgb8(orientation.apply(to: try converter.rgbImage(from: part, width: out.0, height: out.1)))
    }

    /// All remaining frames in the range.
    public func collect() throws -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }

    private func seekFurtherBack() throws {
        seekBack = seekBack == 0 ? 2 : seekBack * 4
        let target = start - seekBack
        if target > 0 && reader.seek(toKeyframeBefore: timeline.timestamp(seconds: target)) {
            checkedLanding = false
            return
        }
        // From the very beginning, on a fresh demuxer: nothing to check after that.
        reader = try Self.makeReader(try openInput(), streamIndex, options)
        checkedLanding = true
    }
}
