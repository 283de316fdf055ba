import Foundation
import GlimtPure
import TensorLite
import TestSupport
import XCTest

/// Help, version and usage mistakes, as a user meets them first.
final class UsageTests: CLITestCase {
    /// The version, the commit the binary was built from (a commit of this repository, baked in
    /// at build time) and the kernels running: what a bug report needs.
    func testVersionSaysTheCommitAndTheKernels() throws {
        let version = try glimt("--version")
        XCTAssertEqual(version.status, 0)
        let lines = version.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, version.out)
        XCTAssertEqual(lines.first, "glimt-pure \(Glimt.version)")
        XCTAssertEqual(lines.last, "kernels: \(KernelVariant.compiled.name) (\(KernelVariant.compiled.level))")
        let commit = String(lines[1].dropFirst("commit: ".count))
        XCTAssertTrue(lines[1].hasPrefix("commit: "), version.out)
        let git = try GlimtBinary.run(
            ["git", "-C", Self.repositoryRoot.path, "cat-file", "-t", commit], binary: URL(fileURLWithPath: "/usr/bin/env"))
        if FileManager.default.fileExists(atPath: Self.repositoryRoot.appendingPathComponent(".git").path) {
            XCTAssertEqual(commit.count, 40, commit)
            XCTAssertEqual(git.out, "commit\n", "\(commit) is a commit of this repository: \(git.err)")
        } else {
            XCTAssertEqual(commit, "unknown")
        }
        let forced = try glimt(["--version"], environment: [KernelChoice.environmentKey: KernelVariant.compiled.rawValue])
        XCTAssertTrue(forced.out.hasSuffix("(\(KernelVariant.compiled.level)), set by GLIMT_KERNELS\n"), forced.out)
    }

    /// A build with one variant of the kernels (a build folder, tools/install.sh) runs only it:
    /// another asked for with GLIMT_KERNELS is refused in one line, saying what the binary holds
    /// or what the CPU lacks, before anything runs.
    func testAVariantNotLinkedInIsRefusedInOneLine() throws {
        let flags = CPUFlags.current() ?? []
        for other in KernelVariant.fastestFirst where other != KernelVariant.compiled {
            let refused = try glimt(["days", "--from", "2024-05-01"], environment: [KernelChoice.environmentKey: other.rawValue])
            XCTAssertEqual(refused.status, 1, refused.err)
            XCTAssertEqual(refused.out, "")
            XCTAssertEqual(refused.err.split(separator: "\n").count, 1, refused.err)
            let why =
                other.missing(from: flags).isEmpty
                ? "this glimt-pure holds only the \(KernelVariant.compiled.name) kernels" : "this CPU cannot run the \(other.name) kernels"
            XCTAssertTrue(refused.err.hasPrefix("glimt-pure: GLIMT_KERNELS=\(other.rawValue): \(why)"), refused.err)
        }
    }

    /// --from and --to are one range wherever they are taken, checked in one place.
    func testEveryCommandWithADayRangeRefusesItBackwards() throws {
        for args in [
            ["film", "--out", library.appendingPathComponent("film.mp4").path], ["scan", library.path], ["days"],
            ["review", "--out", library.appendingPathComponent("site").path],
        ] {
            let run = try glimt(args + ["--from", "2024-05-02", "--to", "2024-05-01"])
            XCTAssertEqual(run.status, 64, "\(args)")
            XCTAssertEqual(run.err, "glimt-pure \(args[0]): --from 2024-05-02 is after --to 2024-05-01\n")
            XCTAssertEqual(
                try glimt(args + ["--to", "2024-02-30"]).err, "glimt-pure \(args[0]): --to: '2024-02-30' is not a calendar day (write YYYY-MM-DD)\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("site").path))
    }

    func testUsageMistakesExitWith64AndSayWhatToDo() throws {
        let unknown = try glimt("fly")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("unknown command 'fly'"))
        let badOption = try glimt("faces", "--bogus", "x.jpg")
        XCTAssertEqual(badOption.status, 64)
        XCTAssertTrue(badOption.err.contains("unknown option --bogus"))
        XCTAssertEqual(try glimt("embed").status, 64)
        XCTAssertEqual(try glimt("help", "fly").status, 64)
    }
}
