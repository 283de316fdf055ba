import CFFmpeg
import GlimtCore

/// Reads a video file: its description, sampled small frames, and full-resolution frames
/// from any time. Times are seconds from the video's start (see `VideoInfo.startTime`).
///
/// Not for sharing between threads; each iterator made from it opens its own demuxer and
/// decoder, so several can run one after another or side by side.
public final class VideoReader {
    public let path: String
    public let info: VideoInfo
    private let streamIndex: Int32
    /// The demuxer opened to read `info`, handed to the first iterator rather than reopened.
    private var spareInput: MediaInput?

    /// Opens `path` and reads its description. Throws a one-line `GlimtError` naming the file
    /// for a missing, empty, truncated or non-video file.
    public init(path: String) throws {
        let input: MediaInput
        do {
            input = try MediaInput(path: path)
        } catch {
            if let brand = HEIFBrand(contentsOf: path) {
                throw GlimtError("is \(brand == .avif ? "an" : "a") \(brand.rawValue) photo, not a video", path: path)
            }
            throw error
        }
        if MediaFormats.isImage(input.demuxerName) || HEIFBrand(contentsOf: path) != nil {
            let codec = input.bestStream(AVMEDIA_TYPE_VIDEO).map { input.codecName(of: $0) } ?? "picture"
            throw GlimtError("is a still image (\(codec)), not a video", path: path)
        }
        guard let index = input.videoStreamIndex else {
            // Neither video nor sound: a header cut short, not a file of another kind.
            let what =
                input.bestStream(AVMEDIA_TYPE_AUDIO) != nil
                ? "has no video stream (sound only)" : "truncated or corrupt: no video or sound stream found"
            throw GlimtError(what, path: path)
        }
        let parameters = input.stream(index).pointee.codecpar.pointee
        guard parameters.width > 0, parameters.height > 0 else {
            throw GlimtError("truncated or corrupt: the video stream has no picture size", path: path)
        }
        self.path = path
        streamIndex = index
        info = VideoInfo(input: input, streamIndex: index)
        spareInput = input
    }

    /// Samples one frame every `interval` seconds from `start`, scaled so the upright long side
    /// is at most `longSide` (never enlarged). See `SampledFrames` for which frame is taken.
    public func frames(
        every interval: Double, longSide: Int, from start: Double = 0, to end: Double = .infinity,
        options: VideoDecodeOptions = .init()
    ) throws -> SampledFrames {
        try SampledFrames(
            input: try takeInput(), streamIndex: streamIndex, info: info, every: interval, longSide: longSide, from: start, to: end,
            options: options)
    }

    /// Every frame shown from `start` (inclusive) to `end` (exclusive), at full resolution and
    /// upright. 10-bit and deeper video comes as 16-bit planes unless `depth` is `.eightBit`.
    /// With a `region`, frames come as that part of the picture at its size.
    public func frames(
        from start: Double, to end: Double, depth: FrameDepth = .source, options: VideoDecodeOptions = .init(),
        region: FrameRegion? = nil
    ) throws -> VideoFrames {
        let path = self.path
        return try VideoFrames(
            input: try takeInput(), reopen: { try MediaInput(path: path) }, streamIndex: streamIndex, info: info,
            from: start, to: end, depth: depth, options: options, region: region)
    }

    private func takeInput() throws -> MediaInput {
        if let input = spareInput {
            spareInput = nil
            return input
        }
        return try MediaInput(path: path)
    }
}
