import Foundation

/// Which videos of a scan are analysed side by side. A short clip's opening, first and last
/// frames and storing leave cores idle about as long as its measuring keeps them busy, and a
/// second clip beside it fills them; a longer video keeps every core busy by itself, and one
/// beside it is no faster but holds a second decoder and its pictures: two 4K videos at once
/// went over the memory that one video keeps to (Benchmarks/README.md has the measurements).
/// So with `--jobs 2` and more, short videos go side by side and a longer one goes alone.
public final class SideBySide: @unchecked Sendable {
    /// Videos shorter than this (seconds) go side by side.
    public static let below: Double = 2.5

    private let condition = NSCondition()
    private var running = 0
    private var aloneWaiting = 0
    private var alone = false

    public init() {}

    /// Waits for a video's turn: a long one until nothing else runs, a short one while no long
    /// one runs or waits for its turn (so long ones are never starved).
    public func enter(duration: Double) {
        condition.lock()
        defer { condition.unlock() }
        if duration >= Self.below {
            aloneWaiting += 1
            while running > 0 { condition.wait() }
            aloneWaiting -= 1
            alone = true
        } else {
            while alone || aloneWaiting > 0 { condition.wait() }
        }
        running += 1
    }

    /// The video that `enter` let in is done.
    public func leave() {
        condition.lock()
        running -= 1
        if running == 0 { alone = false }
        condition.broadcast()
        condition.unlock()
    }
}
