import Foundation

/// Runs `body(0..<count)` on threads of their own and waits for all of them: for work that waits
/// (for a turn, a lock) and runs `DispatchQueue.concurrentPerform` inside. A waiting pool thread
/// still counts against the pool's width, and a concurrentPerform inside then runs its iterations
/// one after another.
public enum OwnThreads {
    public static func run(count: Int, _ body: @escaping (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        // The caller shares what it must between the threads under its own locks, as with
        // concurrentPerform, whose body is not Sendable either.
        let shared = Unchecked(body)
        for i in 0..<count {
            let thread = Thread {
                shared.value(i)
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for _ in 0..<count { done.wait() }
    }
}

private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
