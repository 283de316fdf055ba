import Foundation
import XCTest

/// What a folder of someone's files may hold besides videos: a FIFO with a video's name, links
/// that loop, the same file reached twice. Each is named in one line (or taken once), nothing
/// hangs, and the good video is still analysed.
final class InputFileTests: CLITestCase {
    func testFifosLoopsAndTwiceReachedFilesInAFolder() throws {
        let folder = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let good = folder.appendingPathComponent("a-good.mp4")
        try FileManager.default.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: good.path)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("b-pipe.mov").path, 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("c-loop.mp4").path, withDestinationPath: "d-loop.mp4")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("d-loop.mp4").path, withDestinationPath: "c-loop.mp4")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("sub/up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("e-same.mp4").path, withDestinationPath: good.path)

        let started = Date()
        let run = try glimt("analyze", folder.path, good.path, "--no-refs", "--json", "-q")
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "a FIFO never blocks the run")
        XCTAssertEqual(run.status, 1, "some files could not be used")
        let lines = run.err.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("glimt-pure analyze: \(folder.path)/b-pipe.mov: is a FIFO (named pipe), not a file"), run.err)
        XCTAssertTrue(lines.contains("glimt-pure analyze: \(folder.path)/c-loop.mp4: a symlink loop"), run.err)
        XCTAssertTrue(lines.contains { $0.hasPrefix("glimt-pure analyze: \(folder.path)/sub/up: a symlink loop") }, run.err)
        let result = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as! [String: Any]
        let videos = (result["videos"] as! [[String: Any]]).map { $0["path"] as! String }
        XCTAssertEqual(videos, [good.path], "the same file by three paths (the folder, itself, a link) is analysed once")
    }

    /// A path longer than the system takes (PATH_MAX, 4096 bytes) is one line, and the run goes on.
    func testAPathLongerThanTheSystemTakesIsOneLine() throws {
        let long = library.path + "/" + String(repeating: "a/", count: 2100) + "x.mp4"
        let good = fixture("analysis/two_people.mp4")
        for (command, options) in [("analyze", ["--no-refs", "-q"]), ("scan", ["-q"])] {
            let run = try glimt([command, long, good] + options)
            XCTAssertEqual(run.status, 1, "\(command): \(run.err)")
            XCTAssertEqual(run.err, "glimt-pure \(command): \(long): name too long\n", command)
            XCTAssertTrue(run.out.hasPrefix(command == "scan" ? "1 video found: 1 analysed" : "1 video analysed"), "\(command) went on: \(run.out)")
        }
    }

    /// Several copies of one video (a renamed copy, a hard link) and several empty files: each is
    /// named in a line of its own on stderr, also with -q, by the scan, the one-shot analysis and
    /// the film alike. An empty file is never "the same video" as another empty file.
    func testEachCopyAndEachEmptyFileIsNamedInItsOwnLineAlsoWithQuiet() throws {
        let folder = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = folder.appendingPathComponent("a.mp4").path
        try FileManager.default.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: first)
        try FileManager.default.copyItem(atPath: first, toPath: folder.appendingPathComponent("b copy.mp4").path)
        try FileManager.default.linkItem(atPath: first, toPath: folder.appendingPathComponent("c-link.mp4").path)
        for name in ["e1.mp4", "e2.mp4", "e3.mp4"] { try Data().write(to: folder.appendingPathComponent(name)) }
        let out = library.appendingPathComponent("film.mp4").path
        for (command, options) in [("scan", ["-q"]), ("analyze", ["--no-refs", "-q"]), ("film", ["--no-refs", "-q", "--out", out, "-y"])] {
            let run = try glimt([command, folder.path] + options)
            // The lines that name one file each (film adds a summary of them, and a word on dates).
            let lines = run.err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("glimt-pure \(command): \(folder.path)/") }
            let expected =
                ["b copy.mp4", "c-link.mp4"].map { "glimt-pure \(command): \(folder.path)/\($0): the same video as \(first); counted once" }
                + ["e1.mp4", "e2.mp4", "e3.mp4"].map { "glimt-pure \(command): \(folder.path)/\($0): empty file (0 bytes)" }
            XCTAssertEqual(lines.sorted(), expected.sorted(), "\(command): \(run.err)")
        }
    }
}
