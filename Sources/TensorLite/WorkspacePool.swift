import Foundation

/// Scratch buffers for a forward pass, reused across calls and handed to one thread at a time,
/// so a model can be shared by many threads without allocating feature maps per call.
public final class WorkspacePool<W>: @unchecked Sendable {
    private var free: [W] = []
    private let lock = NSLock()

    public init() {}

    public func with<T>(make: () -> W, _ body: (W) throws -> T) rethrows -> T {
        lock.lock()
        let w = free.popLast()
        lock.unlock()
        let workspace = w ?? make()
        defer {
            lock.lock()
            free.append(workspace)
            lock.unlock()
        }
        return try body(workspace)
    }
}
