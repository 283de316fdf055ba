import Foundation
import XCTest

/// Privacy is a promise: the whole path (a reference, a scan, the days, a film) run under
/// `strace` makes no network system call at all and reads no user database (`/etc/passwd`,
/// `/etc/group`, nscd), only the files it was given. tools/test.sh installs strace.
final class PrivacyTests: CLITestCase {
    func testNoSocketAndNoUserDatabaseAnywhere() throws {
        let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tracer = try XCTUnwrap(strace, "strace is missing (tools/test.sh installs it)")
        let sample = Self.repositoryRoot.appendingPathComponent("Sample")
        let runs: [[String]] = [
            ["reference", "add", sample.appendingPathComponent("reference.jpg").path],
            ["scan", sample.appendingPathComponent("videos").path, "-q"],
            ["days", "--json"],
            ["film", "--out", library.appendingPathComponent("film.mp4").path, "--size", "180x320", "--mute", "-q"],
        ]
        for args in runs {
            let log = library.appendingPathComponent("trace-\(args[0]).log")
            let run = try glimt(["-f", "-e", "trace=network,open,openat", "-o", log.path, Self.binary.path] + args, binary: URL(fileURLWithPath: tracer))
            XCTAssertEqual(run.status, 0, "\(args[0]): \(run.err)")
            let trace = try String(contentsOf: log, encoding: .utf8)
            let calls = trace.split(separator: "\n").filter { !$0.contains("+++") && !$0.contains("---") }
            XCTAssertFalse(calls.isEmpty, "\(args[0]): strace saw the opens")
            for call in calls {
                for banned in ["socket(", "connect(", "bind(", "sendto(", "/etc/passwd", "/etc/group", "nscd"] {
                    XCTAssertFalse(call.contains(banned), "\(args[0]) made a call it must never make: \(call)")
                }
            }
        }
    }
}
