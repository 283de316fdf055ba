import Foundation

/// A request to stop, from Ctrl-C, the system's SIGTERM (at shutdown, or `systemctl stop`) or a
/// closed terminal: long work that can keep what it finished (a scan commits each video) checks
/// it, stops within a frame or two, and says what it kept. A second Ctrl-C ends the process at
/// once, as the person then plainly wants.
public enum StopRequest {
    /// Written only by the signal handler, read by the workers: one word, so a read never sees
    /// half of a write.
    nonisolated(unsafe) private static let raised: UnsafeMutablePointer<sig_atomic_t> = {
        let p = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()

    public static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// The signal that asked to stop, or nil.
    public static var signal: Int32? {
        let s = raised.pointee
        return s == 0 ? nil : Int32(s)
    }

    public static var isRequested: Bool { raised.pointee != 0 }

    /// From now on the signals ask to stop instead of ending the process.
    public static func install() {
        _ = raised
        for sig in signals {
            Foundation.signal(sig) { sig in
                // Only async-signal-safe work here: one store, and the default action restored
                // so the next one ends the process.
                StopRequest.raised.pointee = sig_atomic_t(sig)
                Foundation.signal(sig, SIG_DFL)
            }
        }
    }

    /// The signals end the process again.
    public static func uninstall() {
        for sig in signals { Foundation.signal(sig, SIG_DFL) }
    }
}

/// Work given up because a stop was asked for (see `StopRequest`): not a failure of any input.
public struct Stopped: Error, Sendable {
    public init() {}
}
