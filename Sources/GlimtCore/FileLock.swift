import Foundation

/// An exclusive advisory lock (flock) on a file beside the data it guards, so two processes that
/// read, change and write the same file take turns instead of losing one change. The kernel
/// drops it when the process dies, so a killed run never leaves the library locked.
public enum FileLock {
    /// `whileWaiting` is called once, before waiting, when another process holds the lock. A
    /// stop asked for meanwhile (Ctrl-C, SIGTERM: see `StopRequest`) ends the wait within a
    /// twentieth of a second with `Stopped`: a blocking flock would sleep through it.
    public static func withLock<T>(_ path: String, whileWaiting: (() -> Void)? = nil, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GlimtError("cannot open lock file: \(String(cString: strerror(errno)))", path: path) }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            defer { flock(fd, LOCK_UN) }
            return try body()
        }
        whileWaiting?()
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw GlimtError("cannot lock: \(String(cString: strerror(errno)))", path: path) }
            if StopRequest.isRequested { throw Stopped() }
            usleep(50_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Runs `body` under the lock when no other process holds it; nil, running nothing, when one
    /// does (a daily scan that finds another still at work leaves the library to it).
    public static func ifFree<T>(_ path: String, _ body: () throws -> T) throws -> T? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GlimtError("cannot open lock file: \(String(cString: strerror(errno)))", path: path) }
        defer { close(fd) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return nil }
            guard errno == EINTR else { throw GlimtError("cannot lock: \(String(cString: strerror(errno)))", path: path) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Whether another process holds the lock now, asked without taking it for more than an
    /// instant and without creating the file (a command that only reads creates nothing).
    public static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }
}
