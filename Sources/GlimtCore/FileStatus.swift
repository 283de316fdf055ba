import Foundation

/// What `stat(2)` says of a path, and nothing else: no owner-name look-ups (Foundation's
/// attribute calls read /etc/passwd and ask nscd), no open, so a FIFO cannot block us.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case file, folder, fifo, device, socket, other }

    public let kind: Kind
    public let size: Int64
    public let modified: Date
    /// Device and inode: the same file reached by two paths has the same identity.
    public let device: UInt64
    public let inode: UInt64

    /// Follows symlinks. Errors are one line naming the path: "no such file", "a symlink loop", ...
    public init(_ path: String) throws {
        var s = stat()
        guard FileName.withPath(path, { stat($0, &s) }) == 0 else { throw GlimtError(Self.reason(errno), path: path) }
        self.init(s)
    }

    /// `name` in the open folder `folder` (fstatat, following symlinks): works however long the
    /// folder's own path is. `path` is only what an error names.
    public init(in folder: Int32, name: String, path: String) throws {
        var s = stat()
        guard FileName.withPath(name, { fstatat(folder, $0, &s, 0) }) == 0 else { throw GlimtError(Self.reason(errno), path: path) }
        self.init(s)
    }

    private init(_ s: stat) {
        switch s.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFIFO: kind = .fifo
        case S_IFCHR, S_IFBLK: kind = .device
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int64(s.st_size)
        modified = Date(timeIntervalSince1970: Double(s.st_mtim.tv_sec) + Double(s.st_mtim.tv_nsec) / 1e9)
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
    }

    public static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: return "no such file"
        case ELOOP: return "a symlink loop"
        case EACCES: return "permission denied"
        case ENAMETOOLONG: return "name too long"
        default: return String(cString: strerror(code))
        }
    }

    /// Why this is not a file glimt can read as a photo or video; nil for a regular file.
    public var notAFile: String? {
        switch kind {
        case .file: return nil
        case .folder: return "is a folder, not a photo or video"
        case .fifo: return "is a FIFO (named pipe), not a file"
        case .device: return "is a device, not a file"
        case .socket: return "is a socket, not a file"
        case .other: return "is not a regular file"
        }
    }
}
