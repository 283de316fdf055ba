import Foundation

/// Frames decoded by this process, of any stream: what tests count to show that re-scoring the
/// library decodes nothing, and that a resumed scan does not decode a finished video again.
public enum DecodeCounter {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count = 0

    public static var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    static func add(_ n: Int) {
        lock.lock()
        count += n
        lock.unlock()
    }
}
