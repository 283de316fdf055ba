import Foundation
import GlimtCore

/// Removes a half-written file when the process is interrupted (Ctrl-C, SIGTERM, SIGHUP), so the
/// temporary film of an aborted render does not linger next to the output. SIGKILL cannot be
/// caught; then only the hidden temporary name is left, never a file under the output name.
public enum InterruptCleanup {
    // The handler may only call async-signal-safe functions: it reads a C string set up front.
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?
    private static let lock = NSLock()

    public static func register(_ file: String) {
        lock.lock()
        defer { lock.unlock() }
        free(path)
        path = FileName.withPath(file) { strdup($0) }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { sig in
                if let p = InterruptCleanup.path { unlink(p) }
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    public static func unregister() {
        lock.lock()
        defer { lock.unlock() }
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
        free(path)
        path = nil
    }
}
