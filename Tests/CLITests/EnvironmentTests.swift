import Foundation
import XCTest

/// What a command takes from its environment: where the library is (HOME, XDG_DATA_HOME) and the
/// zone dates are read in (TZ). A value that cannot be used is said in one line, never quietly
/// replaced by the folder the command runs in or by UTC.
final class EnvironmentTests: CLITestCase {
    /// An empty or relative HOME would put the library wherever the command runs: refused, and
    /// nothing made there. A relative XDG_DATA_HOME is ignored, as the XDG spec says.
    func testAnEmptyOrRelativeHOMEIsRefusedAndARelativeXDGIgnored() throws {
        let here = library.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let cases: [([String: String], [String], String)] = [
            (["HOME": ""], ["XDG_DATA_HOME"], "HOME is empty and XDG_DATA_HOME is not set"),
            (["HOME": "foo"], ["XDG_DATA_HOME"], "HOME 'foo' is not an absolute path and XDG_DATA_HOME is not set"),
            (["XDG_DATA_HOME": "data"], ["HOME"], "HOME is not set and XDG_DATA_HOME 'data' is not an absolute path"),
        ]
        for (environment, unset, reason) in cases {
            for args in [["scan", fixture("analysis/two_people.mp4"), "-q"], ["days"]] {
                let run = try glimt(args, environment: environment, unsetting: unset, in: here)
                XCTAssertEqual(run.status, 1, "\(environment) \(args[0]): \(run.err)")
                XCTAssertEqual(run.err.split(separator: "\n").count, 1, run.err)
                XCTAssertTrue(
                    run.err.contains("cannot tell where the library is: \(reason); set HOME or XDG_DATA_HOME"), "\(environment): \(run.err)")
                XCTAssertEqual(
                    try FileManager.default.contentsOfDirectory(atPath: here.path), [], "\(environment) \(args[0]): nothing made where it ran")
            }
        }
        // A relative XDG_DATA_HOME beside an absolute HOME: the library goes under HOME.
        let home = library.appendingPathComponent("home")
        let run = try glimt(["scan", fixture("analysis/two_people.mp4"), "-q"], environment: ["HOME": home.path, "XDG_DATA_HOME": "data"], in: here)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/glimt/library.sqlite").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: here.path), [])
    }

    /// Foundation reads a TZ that names no zone as UTC without a word: every command that reads
    /// dates says so in one line (with -q too), and --timezone silences it.
    func testATimeZoneThatNamesNoZoneIsSaid() throws {
        let video = fixture("analysis/two_people.mp4")
        let line = "TZ 'Mars/Olympus' names no time zone glimt knows, so dates are read in "
        let runs: [[String]] = [
            ["analyze", video, "--no-refs", "-q"], ["scan", video, "-q"],
            ["film", video, "--no-refs", "--out", library.appendingPathComponent("film.mp4").path, "--size", "180x320", "--mute", "-q"],
        ]
        for args in runs {
            let run = try glimt(args, environment: ["TZ": "Mars/Olympus"])
            XCTAssertEqual(run.status, 0, "\(args[0]): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").filter { $0.contains(line) }.count, 1, "\(args[0]): \(run.err)")
            XCTAssertTrue(run.err.hasPrefix("glimt-pure \(args[0]): \(line)"), run.err)
        }
        let given = try glimt(["analyze", video, "--no-refs", "-q", "--timezone", "UTC"], environment: ["TZ": "Mars/Olympus"])
        XCTAssertEqual(given.err, "", "--timezone says which zone: TZ is not read")
        let known = try glimt(["analyze", video, "--no-refs", "-q"], environment: ["TZ": "Europe/Berlin"])
        XCTAssertEqual(known.err, "")
        XCTAssertEqual(try glimt(["days"], environment: ["TZ": "Mars/Olympus"]).err.contains("TZ"), false, "days reads no dates")
    }
}
