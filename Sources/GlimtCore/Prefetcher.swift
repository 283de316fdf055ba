import Foundation

/// Runs a producer on its own thread, up to `depth` items ahead of the consumer: video decoding
/// overlaps face analysis (or a film's encoding) instead of alternating with it.
public final class Prefetcher<T>: @unchecked Sendable {
    private enum Item {
        case value(T)
        case end
        case failure(Error)
    }

    private let condition = NSCondition()
    private var buffer: [Item] = []
    private var cancelled = false
    private var finished = false
    private let depth: Int
    /// Let go of as soon as the thread ends: it may hold a decoder and its pictures.
    private var produce: (() throws -> T?)?

    public init(depth: Int, produce: @escaping () throws -> T?) {
        self.depth = max(1, depth)
        self.produce = produce
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while buffer.count >= self.depth && !cancelled { condition.wait() }
                let stop = cancelled
                condition.unlock()
                if stop { break }
                let item: Item
                do { item = try self.produce!().map(Item.value) ?? .end } catch { item = .failure(error) }
                condition.lock()
                buffer.append(item)
                condition.broadcast()
                condition.unlock()
                if case .value = item { continue }
                break
            }
            condition.lock()
            self.produce = nil
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next item in order; nil at the end; rethrows the producer's error where it happened.
    public func next() throws -> T? {
        condition.lock()
        defer { condition.unlock() }
        while buffer.isEmpty { condition.wait() }
        let item = buffer.removeFirst()
        condition.broadcast()
        switch item {
        case .value(let v): return v
        case .end: return nil
        case .failure(let e): throw e
        }
    }

    /// Stops the producer and waits until it has let go of everything it uses.
    public func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
