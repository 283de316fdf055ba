import Foundation
import XCTest

/// CI's run of the tests (`.ci/run` sets CI=true, as CI services do). A test that leaves itself
/// out for want of something (root, a tool, the time to build the Debian package) must not pass
/// CI by leaving itself out: there it fails instead, saying what was missing.
public enum ContinuousIntegration {
    public static let isRunning = ProcessInfo.processInfo.environment["CI"] == "true"

    /// What to throw for a test that cannot run here: a skip with `reason`, or in CI a failure.
    public static func cannotRun(_ reason: String) -> Error {
        isRunning ? Missing(reason: reason) : XCTSkip(reason)
    }

    struct Missing: Error, CustomStringConvertible {
        let reason: String
        var description: String { "CI must run this test, but: \(reason)" }
    }
}
