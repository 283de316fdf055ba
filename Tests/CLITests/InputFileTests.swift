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
}
