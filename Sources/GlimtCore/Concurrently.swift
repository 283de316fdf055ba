import Dispatch

/// Work split by index over every core (`DispatchQueue.concurrentPerform`), its results kept in
/// index order.
public enum Concurrently {
    /// `transform` of each index in `0..<count`, run at once on every core. Each index writes
    /// only its own element, so the threads share nothing but the array's memory.
    @inlinable
    public static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = buffer
            DispatchQueue.concurrentPerform(iterations: count) { i in (slots.baseAddress! + i).initialize(to: transform(i)) }
            initialized = count
        }
    }
}
