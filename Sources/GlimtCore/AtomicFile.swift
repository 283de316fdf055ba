import Foundation

/// Writes a file so that readers see the old file or the whole new one, never half of it:
/// the bytes go to a temporary file in the same folder, which is then renamed into place.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GlimtError("cannot write: \(String(cString: strerror(errno)))", path: path) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        // The data must be on disk before the rename makes it the file.
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw GlimtError("cannot write: \(String(cString: strerror(failure)))", path: path)
        }
    }

    public static func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write([UInt8](data), to: url.path)
    }

    /// A hidden sibling name for work in progress on `url` (for writers that stream, like the film).
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
    }

    /// Moves a finished temporary file over `url` (rename(2) replaces atomically).
    public static func replace(_ url: URL, with tmp: URL) throws {
        guard rename(tmp.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp.path)
            throw GlimtError("cannot move the finished file into place (\(reason))", path: url.path)
        }
    }
}
