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
        try checkSize(width: Int(parameters.width), height: Int(parameters.height), path: path)

        let reader = try StreamFrameReader(input: input, streamIndex: index, setup: .init(threads: 1, strict: true, maxPixels: maxPixels, jpegIntegerIDCT: true))
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
        try checkSize(width: width, height: height, path: path)

        let stored: RGBImage
        do {
            // JPEGs as libjpeg decodes them: OpenCV's imread, on which the face models were checked.
            stored = try (isJPEG ? LibjpegPixels.rgbImage(bytes: jpegBytes, frame: frame) : nil)
                ?? PixelConverter(unlabelled: .photo).rgbImage(from: frame, width: width, height: height)
        }
        catch let error as GlimtError { throw error.at(path) }
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
           let orientation = ImageOrientation(rawValue: value) {
            return orientation
        }
        if let matrix = glimt_stream_display_matrix(stream) {
            return ImageOrientation(displayMatrix: matrix)
        }
        return .upright
    }

    private static func checkSize(width: Int, height: Int, path: String) throws {
        guard width > 0, height > 0 else { return }
        if width * height > maxPixels { throw GlimtError(MediaLimits.tooLargeReason(width: width, height: height), path: path) }
    }
}
