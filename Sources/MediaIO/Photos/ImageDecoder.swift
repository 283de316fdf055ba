import CFFmpeg
import Foundation
import GlimtCore
import Imaging

/// Reads a photo (JPEG, PNG, WebP, HEIC, AVIF) into an upright `RGBImage`.
public enum ImageDecoder {
    /// The largest picture decoded, in pixels: past this a file is refused, not allocated.
    public static let maxPixels = MediaLimits.maxPixels

    /// Decodes the first picture of `path`, turned upright by its EXIF orientation.
    /// Throws a one-line `GlimtError` naming the file for anything that is not a whole photo.
    public static func decode(path: String) throws -> RGBImage { try photo(path: path).image }

    /// A photo and when it was taken, as its EXIF says ("2024-05-03T19:20:00", with the offset
    /// when the file gives one; nil when it says nothing).
    public static func photo(path: String) throws -> (image: RGBImage, taken: String?) {
        // FFmpeg before 7.1 cannot demux HEIF: glimt reads the items itself.
        let brand = HEIFBrand(contentsOf: path)
        if brand != nil && !HEIFImage.isTrackOnly(path: path) {
            let picture = try HEIFImage.decode(path: path)
            return (picture.image, picture.exif?.captureTime)
        }
        // A JPEG's size, from its frame header, is checked before FFmpeg sees it (its decoder
        // takes a huge size in a small file for damage), and said as the photo is shown: a
        // portrait photo stored on its side is taller than wide.
        let header = jpegHeader(path: path)
        let shown = header?.orientation
        if let header { try checkSize(width: header.width, height: header.height, path: path, shown: shown) }
        // Everything else, HEIF image sequences (a track, no items) included, is FFmpeg's.
        let input = try MediaInput(path: path)
        let heif = input.demuxerName.hasPrefix("mov") ? brand : nil
        guard let index = input.videoStreamIndex else {
            let what = input.bestStream(AVMEDIA_TYPE_AUDIO) != nil ? "is a sound file" : "has no picture in it"
            throw GlimtError("\(what), not a photo", path: path)
        }
        let stream = input.stream(index)
        if heif == nil && !MediaFormats.isImage(input.demuxerName) {
            throw GlimtError("is a video (\(input.codecName(of: index))), not a photo", path: path)
        }
        let parameters = stream.pointee.codecpar.pointee
        try checkSize(width: Int(parameters.width), height: Int(parameters.height), path: path, shown: shown)

        let reader = try StreamFrameReader(
            input: input, streamIndex: index, setup: .init(threads: 1, strict: true, maxPixels: maxPixels, jpegIntegerIDCT: true))
        guard let frame = try reader.next() else {
            throw GlimtError("truncated or corrupt: no picture could be decoded", path: path)
        }
        if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            throw GlimtError("truncated or corrupt: the picture is damaged", path: path)
        }
        // A JPEG's bytes, read once for the end check and for glimt's own decoder.
        let isJPEG = parameters.codec_id == AV_CODEC_ID_MJPEG
        let jpegBytes = isJPEG ? FileName.contents(of: path, limit: LibjpegPixels.maxBytes) : nil
        if isJPEG && !(jpegBytes.map(JPEGEndCheck.isComplete(bytes:)) ?? JPEGEndCheck.isComplete(path: path)) {
            throw GlimtError("truncated or corrupt: the JPEG data stops before its end marker", path: path)
        }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        try checkSize(width: width, height: height, path: path, shown: shown)

        let stored: RGBImage
        do {
            // JPEGs as libjpeg decodes them: OpenCV's imread, on which the face models were checked.
            stored =
                try (isJPEG ? LibjpegPixels.rgbImage(bytes: jpegBytes, frame: frame) : nil)
                ?? PixelConverter(unlabelled: .photo).rgbImage(from: frame, width: width, height: height)
        } catch let error as GlimtError { throw error.at(path) }
        // FFmpeg's JPEG decoder exports the Exif IFD's fields as the frame's metadata.
        let taken = av_dict_get(frame.pointee.metadata, "DateTimeOriginal", nil, 0).flatMap { entry in
            EXIF(dateTimeOriginal: String(cString: entry.pointee.value)).captureTime
        }
        return (orientation(of: frame, stream: stream).apply(to: stored), taken)
    }

    /// EXIF orientation as FFmpeg exports it: a display matrix on the frame (mjpeg and FFmpeg's
    /// HEIF), else the frame's "Orientation" tag, else a display matrix on the stream.
    static func orientation(of frame: UnsafePointer<AVFrame>, stream: UnsafePointer<AVStream>) -> ImageOrientation {
        if let side = av_frame_get_side_data(frame, AV_FRAME_DATA_DISPLAYMATRIX), side.pointee.size >= 9 * 4 {
            return side.pointee.data.withMemoryRebound(to: Int32.self, capacity: 9) { ImageOrientation(displayMatrix: $0) }
        }
        if let tag = av_dict_get(frame.pointee.metadata, "Orientation", nil, 0)?.pointee.value,
            let value = Int(String(cString: tag).trimmingCharacters(in: .whitespaces)),
            let orientation = ImageOrientation(rawValue: value)
        {
            return orientation
        }
        if let matrix = glimt_stream_display_matrix(stream) {
            return ImageOrientation(displayMatrix: matrix)
        }
        return .upright
    }

    /// `shown`: the orientation the photo is shown in, for the size the refusal states.
    private static func checkSize(width: Int, height: Int, path: String, shown: ImageOrientation?) throws {
        guard width > 0, height > 0, width * height > maxPixels else { return }
        let upright = (shown ?? .upright).uprightSize(width: width, height: height)
        throw GlimtError(MediaLimits.tooLargeReason(width: upright.width, height: upright.height), path: path)
    }

    /// A JPEG's stored size (its frame header) and EXIF orientation (its APP1 segment), read from
    /// the segments before its picture data; nil for a file that is not a JPEG or has no frame
    /// header there.
    static func jpegHeader(path: String) -> (width: Int, height: Int, orientation: ImageOrientation?)? {
        let fd = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var b = [UInt8](repeating: 0, count: 1 << 18)
        let n = b.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        let exif: [UInt8] = Array("Exif".utf8) + [0, 0]
        var orientation: ImageOrientation?
        var i = 2
        while i + 4 <= n, b[i] == 0xFF, b[i + 1] != 0xDA {
            let marker = b[i + 1], length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= n else { return nil }
            if marker == 0xE1, length >= 8, Array(b[(i + 4)..<(i + 10)]) == exif {
                orientation = EXIF(tiff: Array(b[(i + 10)..<(i + 2 + length)]))?.orientation
            } else if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), length >= 7 {
                // SOFn: precision, then height and width.
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]), orientation)
            }
            i += 2 + length
        }
        return nil
    }
}
