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

    /// As the Debian package lays them out, PREFIX/bin/glimt-pure hands the process over to the
    /// build GLIMT_KERNELS asks for in PREFIX/lib/glimt-pure, with its arguments; one not
    /// installed is refused in one line. (A script stands in for the other build.)
    func testTheBinaryHandsOverToTheKernelsAskedFor() throws {
        let prefix = library.appendingPathComponent("usr")
        let variants = prefix.appendingPathComponent("lib/glimt-pure")
        try FileManager.default.createDirectory(at: variants, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let front = prefix.appendingPathComponent("bin/glimt-pure")
        try FileManager.default.copyItem(at: Self.binary, to: front)
        let flags = CPUFlags.current() ?? []
        let runnable = KernelVariant.fastestFirst.filter { $0 != KernelVariant.compiled && $0.missing(from: flags).isEmpty }
        guard let other = runnable.first else { throw XCTSkip("this CPU runs no variant but the one built") }
        let stand = variants.appendingPathComponent("glimt-pure-\(other.rawValue)")
        try "#!/bin/sh\necho \"the \(other.name) build, given: $*\"\nexit 3\n".write(to: stand, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(stand.path, 0o755), 0)
        let handed = try glimt(["days", "--from", "2024-05-01"], environment: [KernelChoice.environmentKey: other.rawValue], binary: front)
        XCTAssertEqual(handed.status, 3, handed.err)
        XCTAssertEqual(handed.out, "the \(other.name) build, given: days --from 2024-05-01\n")
        guard let missing = runnable.dropFirst().first else { return }
        let refused = try glimt(["--version"], environment: [KernelChoice.environmentKey: missing.rawValue], binary: front)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.err.split(separator: "\n").count, 1, refused.err)
        XCTAssertTrue(refused.err.hasPrefix("glimt-pure: GLIMT_KERNELS=\(missing.rawValue): this glimt-pure holds only the"), refused.err)
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
