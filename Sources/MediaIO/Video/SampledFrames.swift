import CFFmpeg
import Foundation
import GlimtCore
import Imaging

/// Frames taken every so often from a video, scaled down and upright; made by
/// `VideoReader.frames(every:longSide:from:to:options:)`.
///
/// Each sample is the first frame shown at or after a multiple of the interval (from `start`,
/// before `end`), or with `sampleReferencePictures` the reference picture right after it. Pictures
/// that are neither samples nor needed by any other picture are not decoded (unless
/// `decodeEveryPicture`); only samples are converted.
public final class SampledFrames {
    private let reader: StreamFrameReader
    private let timeline: StreamTimeline
    private let orientation: ImageOrientation
    private let converter: PixelConverter
    /// HLG and PQ samples are tone-mapped as the film shows them, so that looks and sharpness are
    /// judged on the film's pictures (straight to 8 bits, PQ looks dark and flat).
    private let toneMap: ToneMap?
    private let grid: Grid
    private let end: Double
    private let longSide: Int
    /// The grid point of the last sample; -1 before the first.
    private var lastSampled: Double = -1
    private var lastTime: Double?
    private var lastEnd: Double?
    private var finished = false
    private let frameDuration: Double
    /// The last keyframe ends before the video does: no sign of truncation.
    private let keyframesOnly: Bool

    /// Timestamps are rounded to the stream's clock; this much early still counts as on time.
    static let tolerance = 0.0005

    /// Sample times `start + k * interval`. A frame is a sample when a grid point lies after
    /// the frame shown before it and at or before it: the same rule whether or not the frames
    /// between samples were decoded.
    struct Grid {
        let start: Double
        let interval: Double

        /// The last grid point at or before `time`, as k; -1 before the first.
        func point(atOrBefore time: Double) -> Double {
            max(-1, ((time + SampledFrames.tolerance - start) / interval).rounded(.down))
        }

        func isSample(_ time: Double, after previous: Double?) -> Bool {
            let k = point(atOrBefore: time)
            return k >= 0 && k > (previous.map(point(atOrBefore:)) ?? -1)
        }
    }

    init(
        input: MediaInput, streamIndex: Int32, info: VideoInfo, every interval: Double, longSide: Int, from start: Double, to end: Double,
        options: VideoDecodeOptions
    ) throws {
        guard interval > 0, interval.isFinite else { throw GlimtError("sampling interval must be positive, not \(interval)", path: input.path) }
        guard longSide > 0 else { throw GlimtError("long side must be positive, not \(longSide)", path: input.path) }
        reader = try StreamFrameReader(
            input: input, streamIndex: streamIndex, setup: .init(threads: options.threads, maxPixels: MediaLimits.maxPixels, options: options))
        timeline = StreamTimeline(input: input, streamIndex: streamIndex)
        converter = PixelConverter(unlabelled: .video, accurateRounding: options.accurateRounding ?? false, averageEveryShrink: true)
        orientation = info.orientation
        toneMap = ScreenPicture(info).toneMap
        let grid = Grid(start: max(0, start), interval: interval)
        self.grid = grid
        self.end = end
        keyframesOnly = options.keyframesOnly
        self.longSide = longSide
        frameDuration = info.frameRate > 0 ? 1 / info.frameRate : 1.0 / 30
        if grid.start > 0 { _ = reader.seek(toKeyframeBefore: timeline.timestamp(seconds: grid.start)) }
        if !options.decodeEveryPicture && !options.keyframesOnly {
            let timeline = timeline, shift = options.sampleReferencePictures
            reader.wanted = { stamp, previous, following in
                let time = timeline.seconds(ofStamp: stamp)
                guard grid.isSample(time, after: previous.map(timeline.seconds(ofStamp:))) else { return false }
                // Left undecoded (when disposable), the picture after it is the first decoded in its grid cell.
                if shift, let following, !following.disposable,
                    grid.point(atOrBefore: timeline.seconds(ofStamp: following.stamp)) == grid.point(atOrBefore: time)
                {
                    return false
                }
                return true
            }
        }
    }

    /// The next sample, or nil after the last. Throws if the file turns out truncated or
    /// corrupt, after the samples before the damage have been returned.
    public func next() throws -> SampledFrame? {
        if finished { return nil }
        let started = DispatchTime.now().uptimeNanoseconds
        var converting: UInt64 = 0
        defer {
            decodeSeconds += Double(DispatchTime.now().uptimeNanoseconds - started - converting) / 1e9
            convertSeconds += Double(converting) / 1e9
        }
        while let frame = try reader.next() {
            let stamp = timeline.stamp(of: frame)
            if reader.wanted != nil && stamp != frame.pointee.pts {
                // The reader places pictures by their presentation stamps: a frame timed
                // otherwise (no stamp, or FFmpeg's guess from decode stamps) ends skipping.
                reader.wanted = nil
            }
            let time = stamp.map(timeline.seconds(ofStamp:)) ?? (lastTime.map { $0 + frameDuration } ?? 0)
            if time + Self.tolerance >= end {
                finished = true
                return nil
            }
            lastTime = time
            lastEnd = timeline.end(of: frame, at: time)
            let point = grid.point(atOrBefore: time)
            guard point >= 0, point > lastSampled else { continue }
            lastSampled = point
            let size = timeline.scaledSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height), longSide: longSide)
            do {
                let c0 = DispatchTime.now().uptimeNanoseconds
                // Scaled at 16 bits first, then tone-mapped: the curve runs on the small picture only.
                let stored =
                    try toneMap.map { $0.apply(try converter.rgb16Image(from: frame, width: size.width, height: size.height)) }
                    ?? converter.rgbImage(from: frame, width: size.width, height: size.height)
                let upright = orientation.apply(to: stored)
                converting = DispatchTime.now().uptimeNanoseconds - c0
                return SampledFrame(time: time, image: upright)
            } catch let error as GlimtError {
                throw error.at(reader.input.path)
            }
        }
        finished = true
        if !keyframesOnly, grid.start == 0 || lastEnd != nil,
            let error = timeline.truncation(lastEnd: lastEnd, wanted: .infinity, path: reader.input.path)
        {
            throw error
        }
        return nil
    }

    /// All remaining samples.
    public func collect() throws -> [SampledFrame] {
        var frames: [SampledFrame] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }

    /// Seconds spent decoding (every frame, sampled or not) and converting samples (scaling,
    /// colour conversion, turning upright), for the per-stage timings.
    public private(set) var decodeSeconds = 0.0
    public private(set) var convertSeconds = 0.0

    /// Frames decoded so far, sampled or not (for measuring).
    public var framesDecoded: Int { reader.framesDecoded }

    /// Pictures left undecoded so far: neither samples nor needed by any other picture.
    public var picturesSkipped: Int { reader.picturesSkipped }
}
