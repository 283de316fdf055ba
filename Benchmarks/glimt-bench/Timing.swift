import Foundation

enum Timing {
    /// Median wall time of `repeats` runs after one warm-up run.
    static func medianMilliseconds(_ repeats: Int, _ body: () -> Void) -> Double {
        body()
        var times: [Double] = []
        for _ in 0..<max(1, repeats) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        times.sort()
        return times[times.count / 2]
    }
}
