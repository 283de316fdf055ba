import Foundation

/// An exclusive advisory lock (flock) on a file beside the data it guards, so two processes that
/// read, change and write the same file take turns instead of losing one change. The kernel
/// drops it when the process dies, so a killed run never leaves the library locked.
public enum FileLock {
    /// `whileWaiting` is called once, before blocking, when another process holds the lock.
    public static func withLock<T>(_ path: String, whileWaiting: (() -> Void)? = nil, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GlimtError("cannot open lock file: \(String(cString: strerror(errno)))", path: path) }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            defer { flock(fd, LOCK_UN) }
            return try body()
        }
        whileWaiting?()
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw GlimtError("cannot lock: \(String(cString: strerror(errno)))", path: path) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
