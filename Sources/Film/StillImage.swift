import GlimtCore
import Imaging
import MediaIO

/// A still picture glimt writes (a day's or a year's sheet, a thumbnail, a reference's face):
/// JPEG or PNG, chosen by the file's extension, each carrying glimt's mark (`OwnMark`) as its
/// comment, so that it is never taken for a user's photo.
public enum StillImage {
    /// The extensions a still may have; an output named otherwise is refused before any work.
    public static let extensions = ImageEncoder.extensions

    /// Writes `image` as JPEG or PNG by `path`'s extension (atomically: a reader never sees half).
    public static func write(_ image: RGBImage, to path: String) throws {
        try ImageEncoder.write(image, to: path, comment: OwnMark.text)
    }

    public static func writeJPEG(_ image: RGBImage, to path: String) throws {
        try ImageEncoder.writeJPEG(image, to: path, comment: OwnMark.text)
    }

    /// The file's bytes, for a caller that writes them itself (a store, a folder it guards).
    public static func pngData(_ image: RGBImage) throws -> [UInt8] {
        try ImageEncoder.pngData(image, comment: OwnMark.text)
    }

    /// A still glimt wrote, read back as written (where its mark is no reason to refuse it, as
    /// it is for a photo): what a sheet's tests look at.
    public static func read(_ path: String) throws -> RGBImage {
        try ImageDecoder.decode(path: path)
    }

    public static func jpegData(_ image: RGBImage) throws -> [UInt8] {
        try ImageEncoder.jpegData(image, comment: OwnMark.text)
    }
}
