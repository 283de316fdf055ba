import Foundation

/// Which files are photos, by name: the library's scan takes these beside the videos (the days
/// without video get one), and every reader of a day's picture (the film, sheets, thumbnails)
/// decodes them as one picture rather than as a video.
public enum PhotoFile {
    /// File name endings taken as photos (any case): the camera formats of phones and cameras.
    public static let extensions: Set<String> = ["jpg", "jpeg", "heic", "heif"]

    public static func isPhoto(_ path: String) -> Bool { extensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased()) }
}
