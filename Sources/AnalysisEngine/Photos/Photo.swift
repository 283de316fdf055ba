import GlimtCore
import Imaging
import MediaIO

/// A photo as the engine looks at it: its picture decoded upright (JPEG, PNG, HEIC, AVIF...,
/// turned by its EXIF orientation), and when it was taken, as its EXIF says.
public struct Photo: Sendable {
    public let path: String
    public let image: RGBImage
    /// When it was taken, as its EXIF says (`2024-05-03T19:20:00`, with the offset when the file
    /// gives one); nil when it says nothing.
    public let taken: String?

    public init(path: String) throws {
        try Self.refuseOwn(path)
        (image, taken) = try ImageDecoder.photo(path: path)
        self.path = path
    }

    /// The picture only.
    public static func picture(_ path: String) throws -> RGBImage {
        try refuseOwn(path)
        return try ImageDecoder.decode(path: path)
    }

    /// A still glimt wrote (a sheet, a thumbnail, a reference's face: see `OwnMark`) shows no one
    /// as a camera saw them: it is never a reference photo, nor a photo whose faces are numbered.
    static func refuseOwn(_ path: String) throws {
        if let maker = OwnMark.maker(stillAt: path) {
            throw GlimtError("a picture made by \(maker) (a sheet or a thumbnail), not a photo; not used", path: path)
        }
    }
}
