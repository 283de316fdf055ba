import CFFmpeg
import Foundation
import GlimtCore

/// A local file opened for demuxing and nothing more: every photo and video goes through here.
///
/// Three locks keep a hostile file from reaching anything else: the file itself is opened by us
/// through the `file` protocol only; the demuxer's `io_open` refuses every nested open, so a
/// playlist dressed up as `.mp4` cannot read another file or a URL; and only the demuxers in
/// `MediaFormats` are allowed, checked after probing and again by FFmpeg's `format_whitelist`.
final class MediaInput {
    let path: String
    private(set) var context: UnsafeMutablePointer<AVFormatContext>
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let nestedOpens: InputWatch
    private let nestedOpensToken: UnsafeMutableRawPointer

    /// Opens `path` and reads its stream headers. Throws a one-line `GlimtError` naming the file.
    init(path: String, formats: MediaFormats = .all) throws {
        _ = FFmpegLog.install
        FFmpegLog.clear()
        try Self.checkIsReadableFile(path)
        self.path = path

        let log = InputWatch()
        nestedOpens = log
        nestedOpensToken = Unmanaged.passRetained(log).toOpaque()

        var io: UnsafeMutablePointer<AVIOContext>?
        var ioOptions: OpaquePointer?
        av_dict_set(&ioOptions, "protocol_whitelist", "file", 0)
        // "file:" so that a name with a colon is never taken for another protocol.
        var interrupt = AVIOInterruptCB(callback: InputWatch.interrupt, opaque: nestedOpensToken)
        let openStatus = FileName.withPath("file:" + path) { avio_open2(&io, $0, AVIO_FLAG_READ, &interrupt, &ioOptions) }
        av_dict_free(&ioOptions)
        guard openStatus >= 0, let io else {
            Unmanaged<InputWatch>.fromOpaque(nestedOpensToken).release()
            throw GlimtError("cannot read: \(ffmpegReason(openStatus))", path: path)
        }
        self.io = io

        do {
            let format = try Self.probe(io, path: path, formats: formats)
            context = try Self.openDemuxer(io, format: format, path: path, formats: formats, token: nestedOpensToken)
        } catch {
            var io: UnsafeMutablePointer<AVIOContext>? = io
            avio_closep(&io)
            Unmanaged<InputWatch>.fromOpaque(nestedOpensToken).release()
            throw error
        }

        // Probing decodes a frame too: cap its size before a hostile header asks for gigabytes.
        var streamOptions = [OpaquePointer?](repeating: nil, count: Int(context.pointee.nb_streams))
        for i in streamOptions.indices { av_dict_set(&streamOptions[i], "max_pixels", String(MediaLimits.maxPixels), 0) }
        let infoStatus = streamOptions.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
        for i in streamOptions.indices { av_dict_free(&streamOptions[i]) }
        if infoStatus < 0 || nestedOpens.timedOut {
            let reason =
                nestedOpens.timedOut
                ? nestedOpens.bound.exceeded(path: path).error.reason
                : refusalReason() ?? ffmpegFailure(infoStatus, "truncated or corrupt")
            close()
            throw GlimtError(reason, path: path)
        }
        // Opened: reading from here on is bounded by whoever reads (see `limit(to:)`).
        nestedOpens.bound = .unbounded
    }

    deinit { close() }

    /// The demuxer's name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "jpeg_pipe".
    var demuxerName: String { String(cString: context.pointee.iformat.pointee.name) }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
        context.pointee.streams[Int(index)]!
    }

    /// FFmpeg's pick of the main stream of a kind, if the file has one.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? index : nil
    }

    /// The main video stream, leaving out cover art (an attached picture is not video).
    var videoStreamIndex: Int32? {
        guard let index = bestStream(AVMEDIA_TYPE_VIDEO) else { return nil }
        return stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 ? index : nil
    }

    /// FFmpeg's name for a stream's codec, e.g. "h264".
    func codecName(of index: Int32) -> String {
        avcodec_get_name(stream(index).pointee.codecpar.pointee.codec_id).map { String(cString: $0) } ?? "unknown codec"
    }

    func streams(of type: AVMediaType) -> [Int32] {
        (0..<Int32(streamCount)).filter { stream($0).pointee.codecpar.pointee.codec_type == type }
    }

    /// Files and URLs the demuxer tried to open and was refused.
    var refusedOpens: [String] { nestedOpens.urls }

    /// Reading stops once `bound` has passed (it starts as `TimeBound.forOpening`).
    func limit(to bound: TimeBound) { nestedOpens.bound = bound }

    /// Throws once the bound has passed.
    func checkTimeBound() throws {
        if nestedOpens.shouldStop() { throw nestedOpens.bound.exceeded(path: path) }
    }

    /// The one-line reason when a failure came from a refused nested open.
    func refusalReason() -> String? { nestedOpens.urls.first.map(Self.refusal) }

    private static func refusal(_ url: String) -> String {
        "refused: it asks to read another file or URL (\(oneLine(url))); only self-contained photos and videos are read"
    }

    private func close() {
        var context: UnsafeMutablePointer<AVFormatContext>? = self.context
        if io != nil {
            avformat_close_input(&context)
            avio_closep(&io)
            Unmanaged<InputWatch>.fromOpaque(nestedOpensToken).release()
        }
    }

    // MARK: Opening

    /// Regular files only, checked by stat before any open: a FIFO or a device would block or
    /// never end.
    private static func checkIsReadableFile(_ path: String) throws {
        let status = try FileStatus(path)
        if let why = status.notAFile { throw GlimtError(why, path: path) }
        guard FileName.withPath(path, { access($0, R_OK) }) == 0 else { throw GlimtError("cannot read: permission denied", path: path) }
        if status.size == 0 { throw GlimtError("empty file (0 bytes)", path: path) }
    }

    /// Picks the demuxer from the file's first bytes and refuses anything not allowed,
    /// before any demuxer has parsed the file.
    private static func probe(_ io: UnsafeMutablePointer<AVIOContext>, path: String, formats: MediaFormats) throws -> UnsafePointer<AVInputFormat> {
        var format: UnsafePointer<AVInputFormat>?
        // No file name: the content alone picks the demuxer, so a name cannot steer it (and
        // image2 cannot claim a ".jpg" by its extension).
        let score = av_probe_input_buffer2(io, &format, nil, nil, 0, 0)
        guard score >= 0, let format else {
            FFmpegLog.clear()
            throw GlimtError("not \(formats.what) (no known format)", path: path)
        }
        let name = String(cString: format.pointee.name)
        guard formats.allows(name) else {
            if referenceFormats.contains(where: { name.split(separator: ",").contains(Substring($0)) }) {
                throw GlimtError("refused: it is a playlist or reference file (\(name)) that points at other files or URLs", path: path)
            }
            let longName = format.pointee.long_name.map { String(cString: $0) } ?? name
            throw GlimtError("not \(formats.what) (it reads as \(longName))", path: path)
        }
        return format
    }

    /// Demuxers whose files name other files: worth calling out when one is refused.
    private static let referenceFormats = [
        "hls", "applehttp", "dash", "concat", "ffmetadata", "webm_dash_manifest", "imf",
        "sdp", "rtsp", "rtp", "image2", "mpjpeg", "tee",
    ]

    private static func openDemuxer(
        _ io: UnsafeMutablePointer<AVIOContext>, format: UnsafePointer<AVInputFormat>,
        path: String, formats: MediaFormats, token: UnsafeMutableRawPointer
    ) throws -> UnsafeMutablePointer<AVFormatContext> {
        guard let allocated = avformat_alloc_context() else { throw GlimtError("out of memory", path: path) }
        allocated.pointee.pb = io
        allocated.pointee.opaque = token
        allocated.pointee.interrupt_callback = AVIOInterruptCB(callback: InputWatch.interrupt, opaque: token)
        allocated.pointee.io_open = { context, _, url, _, _ in
            if let token = context?.pointee.opaque {
                let log = Unmanaged<InputWatch>.fromOpaque(token).takeUnretainedValue()
                log.record(url.map { String(cString: $0) } ?? "?")
            }
            return glimt_averror_eperm()
        }
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", formats.whitelist, 0)
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let status = FileName.withPath(path) { avformat_open_input(&context, $0, format, &options) }
        av_dict_free(&options)
        // On failure FFmpeg has freed the context (but not our I/O context).
        guard status >= 0, let context else {
            let log = Unmanaged<InputWatch>.fromOpaque(token).takeUnretainedValue()
            if log.timedOut { throw log.bound.exceeded(path: path).error }
            if let url = log.urls.first { throw GlimtError(refusal(url), path: path) }
            throw GlimtError(ffmpegFailure(status, "truncated or corrupt"), path: path)
        }
        return context
    }
}

/// What a demuxer asked to open (for the error message and for tests), and the time bound
/// FFmpeg's I/O checks between reads (its interrupt callback).
private final class InputWatch {
    private(set) var urls: [String] = []
    func record(_ url: String) { urls.append(url) }
    var bound = TimeBound(seconds: TimeBound.forOpening)
    /// Set when the callback stopped FFmpeg, so its failure is reported as the time bound.
    private(set) var timedOut = false

    /// FFmpeg asks this between reads (another thread never sets `bound` while it reads).
    func shouldStop() -> Bool {
        if bound.expired { timedOut = true }
        return timedOut
    }

    static let interrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<InputWatch>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
    }
}
