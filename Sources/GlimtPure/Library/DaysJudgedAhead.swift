import Dispatch
import Foundation
import GlimtCore

/// A batch of days judged in the background while the ones before it are said. Judging is most
/// of the work and runs on every core; saying a day (its output, keeping its judgement) is one
/// thread's work, and with the two in turn the other cores waited for it between batches.
final class DaysJudgedAhead: @unchecked Sendable {
    let days: [String]
    private let done = DispatchGroup()
    private let lock = NSLock()
    private var stopped = false
    // Written once by the background work, read only after `done` (the group orders the two).
    private var results: [String: Result<DayReport, Error>] = [:]

    /// Starts judging `days` with `judge` (each day's own), at once on every core.
    init(_ days: [String], judge: @escaping @Sendable (String) -> Result<DayReport, Error>) {
        self.days = days
        done.enter()
        DispatchQueue.global().async { [self] in
            let out = judged(judge)
            results = Dictionary(uniqueKeysWithValues: zip(days, out).compactMap { day, r in r.map { (day, $0) } })
            done.leave()
        }
    }

    /// Each day's judgement, nil for those not begun before `stop`.
    private func judged(_ judge: (String) -> Result<DayReport, Error>) -> [Result<DayReport, Error>?] {
        Concurrently.map(days.count) { i in isStopped ? nil : judge(days[i]) }
    }

    /// The days' judgements, once all are made.
    func wait() -> [String: Result<DayReport, Error>] {
        done.wait()
        return results
    }

    /// Judges no day not already begun, and returns when the ones begun are done (a run that
    /// ends early, a closed pipe, does not leave work running behind it).
    func stop() {
        lock.withLock { stopped = true }
        done.wait()
    }

    private var isStopped: Bool { lock.withLock { stopped } }
}
