import Foundation

enum Timing {
    /// Median wall time of `repeats` runs after one warm-up run.
    static func medianMilliseconds(_ repeats: Int, _ body: () -> Void) -> Double {
        body()
        var times = (0..<max(1, repeats)).map { _ in milliseconds(body) }
        times.sort()
        return times[times.count / 2]
    }

    /// Wall time of one run.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
    }
}
