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
            let run = try glimt(
                ["-f", "-e", "trace=network,open,openat", "-o", log.path, Self.binary.path] + args, binary: URL(fileURLWithPath: tracer))
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

    /// Without HOME (a service, `env -i`), finding the library never asks the user database for a
    /// home folder: every command that needs the library says in one line what to set, and
    /// nothing is created where it runs.
    func testWithoutHOMENoCommandAsksTheUserDatabase() throws {
        let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tracer = try XCTUnwrap(strace, "strace is missing (tools/test.sh installs it)")
        let here = library.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let video = fixture("analysis/two_people.mp4")
        let runs: [[String]] = [
            ["days"], ["scan", video, "-q"], ["reference", "list"], ["analyze", video, "-q"],
            ["film", "--out", library.appendingPathComponent("film.mp4").path, "-q"], ["exclude", "2024-05-01"],
        ]
        for args in runs {
            let log = library.appendingPathComponent("trace-home-\(args[0]).log")
            let run = try glimt(
                ["-f", "-e", "trace=network,open,openat", "-o", log.path, Self.binary.path] + args,
                unsetting: ["HOME", "XDG_DATA_HOME"], in: here, binary: URL(fileURLWithPath: tracer))
            XCTAssertEqual(run.status, 1, "\(args[0]): \(run.err)")
            XCTAssertEqual(
                run.err,
                "glimt-pure \(args[0]): cannot tell where the library is: HOME is not set and XDG_DATA_HOME is not set; "
                    + "set HOME or XDG_DATA_HOME to an absolute folder, or give --library DIR\n", args[0])
            let trace = try String(contentsOf: log, encoding: .utf8)
            for call in trace.split(separator: "\n") where !call.contains("+++") && !call.contains("---") {
                for banned in ["socket(", "connect(", "/etc/passwd", "/etc/group", "nscd"] {
                    XCTAssertFalse(call.contains(banned), "\(args[0]) without HOME made a call it must never make: \(call)")
                }
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: here.path), [], "\(args[0]): nothing made where it ran")
        }
    }
}
