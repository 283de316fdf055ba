import Foundation

/// Writes a file so that readers see the old file or the whole new one, never half of it:
/// the bytes go to a temporary file in the same folder, which is then renamed into place.
///
/// A symbolic link at the destination is written through (its target gets the new file; the
/// link stays), and temporary files that a killed run of ours left beside it are removed.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to requested: String) throws {
        let path = destination(of: requested)
        removeStaleTemporaries(beside: path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = FileName.withPath(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw GlimtError("cannot write: \(String(cString: strerror(errno)))", path: path) }
        // The data must be on disk before the rename makes it the file.
        var failure = writeAll(bytes, to: fd)
        if failure == 0 && FileName.withPath(temporary, { t in FileName.withPath(path) { rename(t, $0) } }) != 0 { failure = errno }
        if failure != 0 {
            FileName.withPath(temporary) { _ = unlink($0) }
            throw GlimtError("cannot write: \(String(cString: strerror(failure)))", path: requested)
        }
    }

    public static func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write([UInt8](data), to: url.path)
    }

    /// A hidden sibling name for work in progress on `url` (for writers that stream, like the
    /// film), beside the file a symbolic link at `url` points to.
    public static func temporaryURL(for url: URL) -> URL {
        let target = URL(fileURLWithPath: destination(of: url.path))
        removeStaleTemporaries(beside: target.path)
        return target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
    }

    /// Moves a finished temporary file over `url` (rename(2) replaces atomically), through a
    /// symbolic link at `url`.
    public static func replace(_ url: URL, with tmp: URL) throws {
        guard FileName.withPath(tmp.path, { t in FileName.withPath(destination(of: url.path)) { rename(t, $0) } }) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp.path)
            throw GlimtError("cannot move the finished file into place (\(reason))", path: url.path)
        }
    }

    /// Where writing `path` really goes: the final target of a chain of symbolic links (relative
    /// links are relative to their own folder), or `path` itself. A link to nowhere is written
    /// through too: its target is created.
    public static func destination(of path: String) -> String {
        var current = path
        for _ in 0..<40 {  // the kernel's own limit on links followed
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = FileName.withPath(current) { readlink($0, &buffer, buffer.count - 1) }
            guard n > 0 else { return current }
            let target = FileName.string(fromBytes: buffer[0..<n].map { UInt8(bitPattern: $0) })
            current = target.hasPrefix("/") ? target : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return current
    }

    /// Removes `.NAME.PID.partial` and `.NAME.PID-N.tmp` beside `path` whose process is gone
    /// (killed before it could clean up). Files of live processes, and any other name, stay.
    public static func removeStaleTemporaries(beside path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            let pidText: Substring
            if rest.hasSuffix(".partial") {
                pidText = rest.dropLast(".partial".count)
            } else if rest.hasSuffix(".tmp"), let dash = rest.firstIndex(of: "-") {
                pidText = rest[..<dash]
            } else {
                continue
            }
            guard let pid = Int32(pidText), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { FileName.withPath(folder + "/" + name) { _ = unlink($0) } }
        }
    }

    /// Writes all of `bytes` to `fd`, syncs it to disk and closes it: 0, or the first errno.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
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
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        return failure
    }
}
