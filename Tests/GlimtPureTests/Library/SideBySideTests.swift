import Foundation
import GlimtCore
import GlimtPure
import XCTest

/// Which videos a scan analyses side by side: short clips two at a time, a longer video alone,
/// and the video analysed alone still measured on every core.
final class SideBySideTests: XCTestCase {
    /// Two workers through a queue of short and long videos: no long video overlaps any other,
    /// short ones do run side by side, and every video is analysed once.
    func testLongVideosGoAloneAndShortOnesSideBySide() {
        let durations: [Double] = [1, 1, 1, 1, 6, 1.5, 2, 30, 4, 1, 1, 2.4, 2.5]
        let turns = SideBySide()
        let lock = NSLock()
        var next = 0
        var spans: [(start: UInt64, end: UInt64, duration: Double)] = []
        OwnThreads.run(count: 2) { _ in
            while true {
                lock.lock()
                guard next < durations.count else { lock.unlock(); return }
                let d = durations[next]
                next += 1
                lock.unlock()
                turns.enter(duration: d)
                let start = DispatchTime.now().uptimeNanoseconds
                Thread.sleep(forTimeInterval: 0.03)
                let end = DispatchTime.now().uptimeNanoseconds
                turns.leave()
                lock.lock()
                spans.append((start, end, d))
                lock.unlock()
            }
        }
        XCTAssertEqual(spans.map(\.duration).sorted(), durations.sorted())
        func overlap(_ a: (start: UInt64, end: UInt64, duration: Double), _ b: (start: UInt64, end: UInt64, duration: Double)) -> Bool {
            a.start < b.end && b.start < a.end
        }
        var shortPairs = 0
        for i in spans.indices {
            for j in spans.indices where j > i && overlap(spans[i], spans[j]) {
                XCTAssertTrue(
                    spans[i].duration < SideBySide.below && spans[j].duration < SideBySide.below,
                    "a \(spans[i].duration) s and a \(spans[j].duration) s video side by side")
                shortPairs += 1
            }
        }
        XCTAssertGreaterThan(shortPairs, 0, "short clips never went side by side")
    }

    /// While one worker waits for its turn, the video being analysed still gets every core: the
    /// two iterations of a concurrentPerform inside it run at the same time (each waits for the
    /// other). On pool threads, the waiting one held the pool's second thread and they ran one
    /// after the other.
    func testTheVideoAnalysedMeanwhileHasEveryCore() throws {
        try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "one core")
        let waiting = DispatchSemaphore(value: 0)
        let met = NSLock()
        var together = true
        OwnThreads.run(count: 2) { worker in
            guard worker == 1 else {
                waiting.wait()
                return
            }
            let a = DispatchSemaphore(value: 0), b = DispatchSemaphore(value: 0)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                (i == 0 ? a : b).signal()
                let other = (i == 0 ? b : a).wait(timeout: .now() + 2) == .success
                met.lock()
                together = together && other
                met.unlock()
            }
            waiting.signal()
        }
        XCTAssertTrue(together, "the iterations ran one after the other")
    }
}
