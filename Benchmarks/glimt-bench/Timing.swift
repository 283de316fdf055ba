import Foundation

enum Timing {
    /// The middle value (the upper one of an even count), nil for none.
    static func median(_ xs: [Double]) -> Double? { xs.isEmpty ? nil : xs.sorted()[xs.count / 2] }

    /// Median wall time of `repeats` runs after one warm-up run.
    static func medianMilliseconds(_ repeats: Int, _ body: () -> Void) -> Double {
        body()
        var times = (0..<max(1, repeats)).map { _ in milliseconds(body) }
        times.sort()
        return times[times.count / 2]
    }

    /// Median wall times of `repeats` runs of each body after one warm-up run of each, the bodies
    /// taking turns, so that each sees the same machine.
    static func interleavedMedians(_ repeats: Int, _ bodies: [() -> Void]) -> [Double] {
        for body in bodies { body() }
        var times = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<max(1, repeats) {
            for (i, body) in bodies.enumerated() { times[i].append(milliseconds(body)) }
        }
        return times.map { median($0)! }
    }

    /// Wall time of one run.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
    }
}
