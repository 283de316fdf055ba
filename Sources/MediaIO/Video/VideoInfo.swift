import CFFmpeg
import Imaging

/// What a video file says about its main video stream, read without decoding it.
public struct VideoInfo: Sendable, Equatable {
    /// Seconds of video, as it plays from its first frame: the stream's own duration, else the
    /// container's (Matroska's less the start offset its clock counts from: see `StreamTimeline`).
    public var duration: Double
    /// The stream's first timestamp in seconds. Frame times count from it, so the first frame
    /// of every video is at (about) 0.
    public var startTime: Double
    /// The pictures as stored, before rotation and pixel aspect.
    public var codedWidth: Int
    public var codedHeight: Int
    /// Larger than 1080p: decoding is the bottleneck, and decoders run on fewer threads.
    public var isBeyondFullHD: Bool { codedWidth * codedHeight > MediaLimits.fullHDPixels }
    /// The pictures as shown: non-square pixels stretched out, then turned upright.
    public var displayWidth: Int
    public var displayHeight: Int
    /// Clockwise degrees to show the stored pictures upright, from the display matrix; phones
    /// store portrait video sideways with 90. Angles other than 0, 90, 180, 270 are reported
    /// but not applied.
    public var rotation: Int
    /// The whole turn, mirroring included, that frames are given with.
    public var orientation: ImageOrientation
    /// FFmpeg's codec name: "h264", "hevc", "mpeg4", "vp9", "av1", ...
    public var codecName: String
    /// FFmpeg's pixel format name: "yuv420p", "yuv420p10le", ...
    public var pixelFormat: String
    public var bitDepth: Int
    /// Bytes of one decoded picture, what each picture a decoder holds costs: 25 MB for 4K
    /// 10-bit 4:2:0.
    public var pictureBytes: Int {
        let size = av_image_get_buffer_size(av_get_pix_fmt(pixelFormat), Int32(clamping: codedWidth), Int32(clamping: codedHeight), 1)
        return size > 0 ? Int(size) : codedWidth * codedHeight * 3 / 2 * (bitDepth > 8 ? 2 : 1)
    }
    /// Pictures so large that where memory is short (a quick look on two decoders at once, a
    /// film's encoder alongside) they are decoded by one decoder on slice threads.
    public var hasLargePictures: Bool { pictureBytes > MediaLimits.largePictureBytes }
    /// Average frames per second (the nominal rate when the average is unknown).
    public var frameRate: Double
    public var colour: VideoColour
    public var hasAudio: Bool
    /// How many streams of each kind the file holds (a film has one of each).
    public var videoStreams: Int
    public var audioStreams: Int
    /// QuickTime timed-metadata tracks (`mebx`): an iPhone Live Photo's movie marks its still's
    /// time in one.
    public var timedMetadataTracks: Int
    /// The codec profile by FFmpeg's name (e.g. "High" for H.264), when known.
    public var profile: String?
    /// The container's metadata, e.g. "creation_time" (ISO 8601, UTC) and Apple's
    /// "com.apple.quicktime.creationdate" (local time with its offset).
    public var tags: [String: String]
    /// The video stream's own metadata (rotation-free; often its own "creation_time").
    public var streamTags: [String: String]
    /// FFmpeg's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var container: String
    /// Where the frames stop when the file holds less than its own index lists (a copy still
    /// under way, a download cut off): the time of the first listed frame whose bytes lie past
    /// the file's end. Nil when every listed frame is there, or the container keeps no index.
    public var cutShortAt: Double?
}

/// How a video's numbers map to light, in FFmpeg's names.
public struct VideoColour: Sendable, Equatable {
    /// "bt709", "arib-std-b67" (HLG), "smpte2084" (PQ), "unknown", ...
    public var transfer: String
    /// "bt709", "bt2020", "smpte432" (Display P3), "unknown", ...
    public var primaries: String
    /// The YUV matrix: "bt709", "bt2020nc", "bt470bg", "unknown", ...
    public var matrix: String
    /// Full-range ("pc") YUV rather than the usual limited range.
    public var fullRange: Bool

    /// HLG or PQ: needs tone mapping before it looks right on an ordinary screen.
    public var hdrTransfer: HDRTransfer? { HDRTransfer(ffmpegName: transfer) }
    public var isHDR: Bool { hdrTransfer != nil }
    public var isWideGamut: Bool { primaries == "bt2020" }
}

extension VideoInfo {
    init(input: MediaInput, streamIndex: Int32) {
        let stream = input.stream(streamIndex)
        let parameters = stream.pointee.codecpar.pointee
        let timeline = StreamTimeline(input: input, streamIndex: streamIndex)
        duration = timeline.duration
        startTime = timeline.startSeconds

        codedWidth = Int(parameters.width)
        codedHeight = Int(parameters.height)
        let matrix = glimt_stream_display_matrix(stream)
        orientation = matrix.map { ImageOrientation(displayMatrix: $0) } ?? .upright
        rotation = matrix.map { Int(ImageOrientation.clockwiseDegrees(displayMatrix: $0)) % 360 } ?? 0
        let shown = timeline.displaySize(width: codedWidth, height: codedHeight)
        (displayWidth, displayHeight) = orientation.uprightSize(width: shown.width, height: shown.height)

        codecName = input.codecName(of: streamIndex)
        let format = AVPixelFormat(rawValue: parameters.format)
        pixelFormat = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
        bitDepth = av_pix_fmt_desc_get(format).map { Int($0.pointee.comp.0.depth) } ?? 8

        frameRate = timeline.frameRate

        colour = VideoColour(
            transfer: av_color_transfer_name(parameters.color_trc).map { String(cString: $0) } ?? "unknown",
            primaries: av_color_primaries_name(parameters.color_primaries).map { String(cString: $0) } ?? "unknown",
            matrix: av_color_space_name(parameters.color_space).map { String(cString: $0) } ?? "unknown",
            fullRange: parameters.color_range == AVCOL_RANGE_JPEG)
        hasAudio = input.bestStream(AVMEDIA_TYPE_AUDIO) != nil
        videoStreams = input.streams(of: AVMEDIA_TYPE_VIDEO).count
        audioStreams = input.streams(of: AVMEDIA_TYPE_AUDIO).count
        let mebx = UInt32(UInt8(ascii: "m")) | UInt32(UInt8(ascii: "e")) << 8 | UInt32(UInt8(ascii: "b")) << 16 | UInt32(UInt8(ascii: "x")) << 24
        timedMetadataTracks = input.streams(of: AVMEDIA_TYPE_DATA).filter { input.stream($0).pointee.codecpar.pointee.codec_tag == mebx }.count
        profile = avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
        tags = Self.dictionary(input.context.pointee.metadata)
        streamTags = Self.dictionary(stream.pointee.metadata)
        container = input.demuxerName
        let size = avio_size(input.context.pointee.pb)
        let past = size > 0 ? glimt_first_indexed_past(stream, size) : glimt_av_nopts_value()
        cutShortAt = past == glimt_av_nopts_value() ? nil : max(0, timeline.seconds(ofStamp: past))
    }

    private static func dictionary(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            result[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        return result
    }
}

extension HDRTransfer {
    /// The one table from FFmpeg's transfer names to the curves glimt tone-maps; nil for SDR.
    init?(ffmpegName name: String) {
        switch name {
        case "arib-std-b67": self = .hlg
        case "smpte2084": self = .pq
        default: return nil
        }
    }
}
