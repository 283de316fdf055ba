import Foundation

/// The mark every file glimt-pure writes carries, so that one found anywhere (a film saved among
/// the videos, a preview, a sheet or thumbnail offered as a reference photo) is recognised as
/// glimt's own and never taken for a user's video or photo. Videos carry it in their container's
/// metadata, stills in a JPEG comment (COM) segment or a PNG `tEXt` chunk: what image viewers
/// and `exiftool` show as the file's comment.
public enum OwnMark {
    /// glimt-pure's version, in the mark and in `--version`.
    public static let version = "0.1.0"
    /// "glimt-pure 0.1.0".
    public static let text = "glimt-pure \(version)"
    /// The container metadata key a video carries it under (MP4's comment, `©cmt`).
    public static let videoKey = "comment"
    /// The PNG `tEXt` keyword a still carries it under.
    public static let pngKeyword = "Comment"

    /// The maker a mark names when it is glimt-pure's, of any version ("glimt-pure 0.0.9").
    public static func maker(_ mark: String) -> String? {
        let trimmed = mark.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: " ")
        return parts.count == 2 && parts[0] == "glimt-pure" ? trimmed : nil
    }

    /// The maker a still's mark names, from the file's first bytes (where glimt writes it: a
    /// JPEG's segments before its picture data, a PNG's chunks before IDAT); nil for any other.
    public static func maker(still bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegComments(bytes).lazy.compactMap { maker($0) }.first }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngComments(bytes).lazy.compactMap { maker($0) }.first }
        return nil
    }

    /// The same, read from a file's first 256 KiB (a JPEG's EXIF and comments fit in less).
    public static func maker(stillAt path: String) -> String? {
        let fd = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 256 << 10)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? maker(still: Array(head[0..<n])) : nil
    }

    static func jpegComments(_ b: [UInt8]) -> [String] {
        var comments: [String] = []
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            // Start of scan, end of image, or a marker without a length: no more segments.
            if marker == 0xDA || marker == 0xD9 || (0xD0...0xD8).contains(marker) || marker == 0x01 { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { break }
            if marker == 0xFE { comments.append(String(decoding: b[(i + 4)..<(i + 2 + length)], as: UTF8.self)) }
            i += 2 + length
        }
        return comments
    }

    static func pngComments(_ b: [UInt8]) -> [String] {
        var comments: [String] = []
        var i = 8
        while i + 8 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard type != "IDAT", type != "IEND", length >= 0, i + 12 + length <= b.count else { break }
            let data = b[(i + 8)..<(i + 8 + length)]
            if type == "tEXt", let zero = data.firstIndex(of: 0),
                String(decoding: data[data.startIndex..<zero], as: UTF8.self) == pngKeyword
            {
                comments.append(String(decoding: data[(zero + 1)...], as: UTF8.self))
            }
            i += 12 + length
        }
        return comments
    }
}
