import CFFmpeg
import Foundation
import GlimtCore

/// The MP4 container of the film: opens exactly the given path through the `file` protocol,
/// takes encoded packets and writes the index at the front (`faststart`) when finished.
///
/// Dropped without `finish()`, it frees everything and leaves the partial file for its owner.
final class FilmMuxer {
    let path: String
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var headerWritten = false

    init(path: String) throws {
        _ = FFmpegLog.install
        FFmpegLog.clear()
        self.path = path
        try Self.checkFolder(of: path)
        // "file:" so that a name with a colon is never taken for another protocol; faststart
        // reopens this same URL to move the index, through the whitelist set in `writeHeader`.
        let url = "file:" + path
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        let status = FileName.withPath(url) { avformat_alloc_output_context2(&allocated, nil, "mp4", $0) }
        guard status >= 0, let allocated else {
            throw GlimtError("cannot start the MP4 writer: \(ffmpegReason(status))", path: path)
        }
        context = allocated

        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        let opened = FileName.withPath(url) { avio_open2(&allocated.pointee.pb, $0, AVIO_FLAG_WRITE, nil, &options) }
        av_dict_free(&options)
        if opened < 0 {
            throw GlimtError("cannot write: \(ffmpegReason(opened))", path: path)
        }
    }

    deinit {
        // Freeing the context also runs the muxer's own cleanup when the trailer was never written.
        if let context {
            avio_closep(&context.pointee.pb)
            avformat_free_context(context)
        }
    }

    /// Whether encoders must put their headers in the stream description (MP4 wants them there).
    var wantsGlobalHeaders: Bool {
        guard let context else { return false }
        return context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// Adds a stream described by an opened encoder; returns its index.
    func addStream(for encoder: UnsafeMutablePointer<AVCodecContext>) throws -> Int32 {
        guard let context, let stream = avformat_new_stream(context, nil) else {
            throw GlimtError("out of memory", path: path)
        }
        let status = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        guard status >= 0 else { throw GlimtError("cannot describe a film stream: \(ffmpegReason(status))", path: path) }
        // A hint: the muxer may pick a finer clock, which `write` rescales into.
        stream.pointee.time_base = encoder.pointee.time_base
        return stream.pointee.index
    }

    /// The container's metadata (MP4's standard keys: `comment`, `title`, ...), set before the header.
    func tag(_ tags: [String: String]) {
        guard let context else { return }
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { av_dict_set(&context.pointee.metadata, key, value, 0) }
    }

    func writeHeader() throws {
        guard let context else { return }
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "+faststart", 0)
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        let status = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard status >= 0 else { throw GlimtError("cannot write: \(ffmpegReason(status))", path: path) }
        headerWritten = true
    }

    /// Writes every packet `encoder` has ready (all of them once it has been sent the end).
    /// `duration` (in the encoder's time base) fills in packets that come without one: the
    /// last frame's duration sets where the stream ends.
    func drain(
        _ encoder: UnsafeMutablePointer<AVCodecContext>, into streamIndex: Int32, packet: UnsafeMutablePointer<AVPacket>, duration: Int64 = 0
    ) throws {
        while true {
            let status = avcodec_receive_packet(encoder, packet)
            if status == glimt_averror_eagain() || status == glimt_averror_eof() { return }
            guard status >= 0 else { throw GlimtError("cannot encode the film: \(ffmpegReason(status))", path: path) }
            if packet.pointee.duration <= 0 { packet.pointee.duration = duration }
            try write(packet, from: encoder.pointee.time_base, into: streamIndex)
        }
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>, from timeBase: AVRational, into streamIndex: Int32) throws {
        guard let context else { return }
        packet.pointee.stream_index = streamIndex
        av_packet_rescale_ts(packet, timeBase, context.pointee.streams[Int(streamIndex)]!.pointee.time_base)
        // Takes the packet's data (and leaves it blank) whether or not it succeeds.
        let status = av_interleaved_write_frame(context, packet)
        guard status >= 0 else { throw GlimtError("cannot write: \(ffmpegReason(status))", path: path) }
    }

    /// Writes what the interleaver still holds and the index, then closes the file.
    func finish() throws {
        guard let context, headerWritten else { return }
        let status = av_write_trailer(context)
        let closed = avio_closep(&context.pointee.pb)
        guard status >= 0 else { throw GlimtError("cannot write: \(ffmpegReason(status))", path: path) }
        guard closed >= 0 else { throw GlimtError("cannot write: \(ffmpegReason(closed))", path: path) }
    }

    /// A folder that is missing or not a folder, said plainly rather than as FFmpeg's errno text.
    private static func checkFolder(of path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw GlimtError("cannot write: the folder \(folder) does not exist", path: path)
        }
        guard isFolder.boolValue else { throw GlimtError("cannot write: \(folder) is not a folder", path: path) }
    }
}
