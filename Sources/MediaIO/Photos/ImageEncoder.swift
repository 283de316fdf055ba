import CFFmpeg
import GlimtCore
import Imaging

/// Writes an `RGBImage` as PNG (lossless) or JPEG through FFmpeg's own encoders. Files are
/// written to a temporary name in the same folder and renamed into place.
public enum ImageEncoder {
    /// The names `write` takes: JPEG or PNG.
    public static let extensions = ["jpg", "jpeg", "png"]

    /// PNG for a `.png` name, JPEG otherwise. `comment` is written into the file (a JPEG COM
    /// segment, a PNG `tEXt` chunk under `OwnMark.pngKeyword`), where viewers show a file's comment.
    public static func write(_ image: RGBImage, to path: String, comment: String? = nil) throws {
        if path.lowercased().hasSuffix(".png") {
            try writePNG(image, to: path, comment: comment)
        } else {
            try writeJPEG(image, to: path, comment: comment)
        }
    }

    public static func writePNG(_ image: RGBImage, to path: String, comment: String? = nil) throws {
        do { try AtomicFile.write(try pngData(image, comment: comment), to: path) } catch let error as GlimtError { throw error.at(path) }
    }

    /// `quality` runs from 1 (smallest) to 100 (finest), mapped onto the mjpeg quantiser 31...1.
    public static func writeJPEG(_ image: RGBImage, to path: String, quality: Int = 90, comment: String? = nil) throws {
        do { try AtomicFile.write(try jpegData(image, quality: quality, comment: comment), to: path) } catch let error as GlimtError {
            throw error.at(path)
        }
    }

    public static func pngData(_ image: RGBImage, comment: String? = nil) throws -> [UInt8] {
        let png = try encode(image, codec: AV_CODEC_ID_PNG, pixelFormat: AV_PIX_FMT_RGB24, options: ["pred": "paeth"])
        guard let comment else { return png }
        // Right after the signature (8 bytes) and IHDR (25): where readers look first.
        let data = Array(OwnMark.pngKeyword.utf8) + [0] + Array(comment.utf8)
        let typed = Array("tEXt".utf8) + data
        let chunk = bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
        return Array(png[0..<33]) + chunk + Array(png[33...])
    }

    public static func jpegData(_ image: RGBImage, quality: Int = 90, comment: String? = nil) throws -> [UInt8] {
        let clamped = min(max(quality, 1), 100)
        let quantiser = Int32((1 + Double(100 - clamped) * 30 / 99).rounded())
        let jpeg = try encode(image, codec: AV_CODEC_ID_MJPEG, pixelFormat: AV_PIX_FMT_YUVJ420P, options: [:]) { context, frame in
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.qmin = 1
            context.pointee.qmax = 31
            context.pointee.global_quality = FF_QP2LAMBDA * quantiser
            frame.pointee.quality = FF_QP2LAMBDA * quantiser
        }
        guard let comment else { return jpeg }
        let text = Array(comment.utf8.prefix(65_000))
        let segment: [UInt8] = [0xFF, 0xFE] + Array(bigEndian(UInt32(text.count + 2)).suffix(2)) + text
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// PNG's CRC-32 (ISO 3309, reflected, as zlib's), over a chunk's type and data.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func encode(
        _ image: RGBImage, codec id: AVCodecID, pixelFormat: AVPixelFormat, options: [String: String],
        configure: (UnsafeMutablePointer<AVCodecContext>, UnsafeMutablePointer<AVFrame>) -> Void = { _, _ in }
    ) throws -> [UInt8] {
        _ = FFmpegLog.install
        let name = avcodec_get_name(id).map { String(cString: $0) } ?? "?"
        guard let codec = avcodec_find_encoder(id) else { throw GlimtError("this FFmpeg has no \(name) encoder") }
        var context = avcodec_alloc_context3(codec)
        var source = av_frame_alloc()
        var encoded = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&source)
            av_frame_free(&encoded)
            av_packet_free(&packet)
        }
        guard let context, let source, let encoded, let packet else { throw GlimtError("out of memory") }

        source.pointee.format = AV_PIX_FMT_RGB24.rawValue
        source.pointee.width = Int32(image.width)
        source.pointee.height = Int32(image.height)
        // Aligned, padded rows: SIMD readers may look past a row's last pixel.
        guard av_frame_get_buffer(source, 64) >= 0 else { throw GlimtError("out of memory") }
        let rowBytes = image.width * 3
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                (source.pointee.data.0! + y * Int(source.pointee.linesize.0))
                    .update(from: pixels.baseAddress! + y * rowBytes, count: rowBytes)
            }
        }

        var picture = source
        if pixelFormat != AV_PIX_FMT_RGB24 {
            encoded.pointee.format = pixelFormat.rawValue
            encoded.pointee.width = source.pointee.width
            encoded.pointee.height = source.pointee.height
            encoded.pointee.color_range = AVCOL_RANGE_JPEG
            encoded.pointee.colorspace = AVCOL_SPC_BT470BG
            guard av_frame_get_buffer(encoded, 64) >= 0 else { throw GlimtError("out of memory") }
            try PixelConverter(unlabelled: .photo).convert(source, into: encoded)
            picture = encoded
        }

        context.pointee.width = Int32(image.width)
        context.pointee.height = Int32(image.height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.colorspace = AVCOL_SPC_BT470BG
        configure(context, picture)
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        let opened = avcodec_open2(context, codec, &dictionary)
        av_dict_free(&dictionary)
        guard opened >= 0 else { throw GlimtError("cannot start the \(name) encoder: \(ffmpegReason(opened))") }

        picture.pointee.pts = 0
        var bytes: [UInt8] = []
        var status = avcodec_send_frame(context, picture)
        if status >= 0 { status = avcodec_send_frame(context, nil) }
        while status >= 0 {
            status = avcodec_receive_packet(context, packet)
            if status < 0 { break }
            bytes.append(contentsOf: UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            av_packet_unref(packet)
        }
        guard status == glimt_averror_eof(), !bytes.isEmpty else {
            throw GlimtError("\(name) encoding failed: \(ffmpegReason(status))")
        }
        return bytes
    }
}
