import CFFmpeg
import GlimtCore
import Imaging

/// Every frame shown in `[start, end)` at full resolution, upright; made by
/// `VideoReader.frames(from:to:depth:options:)`.
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
    private var seekBack = 0.0
    private var checkedLanding = false
    private var done = false
    private var lastEnd: Double?

    init(input: MediaInput, reopen: @escaping () throws -> MediaInput, streamIndex: Int32, info: VideoInfo,
         from start: Double, to end: Double, depth: FrameDepth, options: VideoDecodeOptions) throws {
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
        if self.start > 0 && !reader.seek(toKeyframeBefore: timeline.timestamp(seconds: self.start)) {
            checkedLanding = true   // cannot seek: decoding from the beginning is all there is
        }
    }

    private static func makeReader(_ input: MediaInput, _ streamIndex: Int32, _ options: VideoDecodeOptions) throws -> StreamFrameReader {
        try StreamFrameReader(input: input, streamIndex: streamIndex, setup: .init(threads: options.threads, maxPixels: MediaLimits.maxPixels, options: options))
    }

    /// The next frame in the range, or nil after the last. Throws if the file turns out
    /// truncated or corrupt, after the frames before the damage have been returned.
    public func next() throws -> VideoFrame? {
        let tolerance = SampledFrames.tolerance
        while !done, let frame = try reader.next() {
            guard let time = timeline.seconds(of: frame) else { continue }
            if !checkedLanding {
                checkedLanding = true
                if time > start + tolerance && start > 0 {
                    try seekFurtherBack()
                    continue
                }
            }
            lastEnd = timeline.end(of: frame, at: time)
            if time + tolerance < start { continue }
            if time + tolerance >= end {
                done = true
                return nil
            }
            let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
            let size = timeline.displaySize(width: width, height: height)
            do {
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
        if !done, let error = timeline.truncation(lastEnd: lastEnd, wanted: end, path: reader.input.path) {
            done = true
            throw error
        }
        done = true
        return nil
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
