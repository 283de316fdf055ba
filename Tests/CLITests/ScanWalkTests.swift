import Foundation
import GlimtPure
import TestSupport
import XCTest

/// How `scan` finds videos in folders it is pointed at: each real folder is visited once however
/// many links lead to it, the kernel's pseudo-filesystems are not walked, and Ctrl-C or SIGTERM
/// stop the scan within a second whatever it is doing.
final class ScanWalkTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }

    /// Runs `glimt-pure args...`; past `seconds`, kills it and fails.
    private func run(_ args: [String], within seconds: Double, file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let p = try start(args + ["--library", store.path])
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning && Date() < deadline { usleep(20_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            XCTFail("\(args) still ran after \(seconds) s", file: file, line: line)
        }
        return finish(p)
    }

    /// 24 folders, each with two links to the next: 2^24 paths to the last one, and no loop. A
    /// walk by paths never ends; a walk by folders visits 24.
    private func maze(levels: Int = 24) throws -> (root: URL, clip: String) {
        let maze = library.appendingPathComponent("maze")
        for i in 0...levels {
            try FileManager.default.createDirectory(at: maze.appendingPathComponent("level\(i)"), withIntermediateDirectories: true)
        }
        for i in 0..<levels {
            for link in ["a", "b"] {
                try FileManager.default.createSymbolicLink(
                    atPath: maze.appendingPathComponent("level\(i)/\(link)").path,
                    withDestinationPath: maze.appendingPathComponent("level\(i + 1)").path)
            }
        }
        let clip = try GeneratedClips.write(Array(GeneratedClips.days.prefix(1)), to: maze.appendingPathComponent("level\(levels)").path)[0]
        return (maze.appendingPathComponent("level0"), clip)
    }

    func testAMazeOfLinksIsWalkedOnceAFolder() throws {
        let (root, clip) = try maze()
        let scan = try run(["scan", root.path, "--timezone", "UTC", "--json", "-q"], within: 60)
        XCTAssertEqual(scan.status, 0, scan.err)
        let summary = try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(scan.out.utf8))
        XCTAssertEqual([summary.found, summary.analysed], [1, 1], "the one clip, found once")
        XCTAssertEqual(
            try LibraryStore(library: store).identity(contentKey: ContentKey.of(path: clip))?.path.hasSuffix("VID_20240501_120000_0.mp4"), true)
        XCTAssertEqual(scan.err, "", "a folder reached again by another link is no problem to report")
        let status = try run(["status"], within: 30)
        XCTAssertEqual(status.status, 0, status.err)
    }

    /// /proc and /sys are the kernel's: /proc/self/root leads back to / and into /sys, and their
    /// files are no videos. They are not walked, with one line each, and a link to one inside a
    /// folder of videos costs the scan nothing more.
    func testTheKernelsPseudoFilesystemsAreNotWalked() throws {
        for folder in ["/proc", "/proc/self", "/sys"] {
            let scan = try run(["scan", folder, "--timezone", "UTC"], within: 30)
            XCTAssertEqual(scan.status, 1, "\(folder): \(scan.err)")
            let lines = scan.err.split(separator: "\n")
            XCTAssertEqual(
                lines.first.map(String.init),
                "glimt-pure scan: \(folder): the kernel's \(folder.hasPrefix("/sys") ? "sysfs" : "proc") filesystem, not a folder of videos; not walked",
                scan.err)
            XCTAssertEqual(lines.count, 1, scan.err)
        }
        let videos = library.appendingPathComponent("videos")
        try GeneratedClips.write(Array(GeneratedClips.days.prefix(1)), to: videos.path)
        try FileManager.default.createSymbolicLink(atPath: videos.appendingPathComponent("self").path, withDestinationPath: "/proc/self")
        let scan = try run(["scan", videos.path, "--timezone", "UTC", "--json", "-q"], within: 60)
        XCTAssertEqual(scan.status, 1, scan.err)
        XCTAssertEqual(scan.err, "glimt-pure scan: \(videos.path)/self: the kernel's proc filesystem, not a folder of videos; not walked\n")
        XCTAssertEqual(try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(scan.out.utf8)).analysed, 1)
        let status = try run(["status"], within: 30)
        XCTAssertEqual(status.status, 0, status.err)
    }

    /// SIGTERM or Ctrl-C at any moment of a scan of the maze ends it within a second: with 130 and
    /// its line when it was stopped, or as it would have ended when it was done before.
    func testASignalStopsAScanWhileItWalks() throws {
        let (root, _) = try maze()
        var stopped = 0
        for (i, signal) in [SIGTERM, SIGINT, SIGTERM, SIGINT, SIGTERM, SIGTERM].enumerated() {
            try? FileManager.default.removeItem(at: store)
            let p = try start(["scan", root.path, "--timezone", "UTC", "--library", store.path])
            usleep(UInt32(100_000 + 60_000 * i))
            kill(p.processIdentifier, signal)
            let signalled = Date()
            while p.isRunning && Date().timeIntervalSince(signalled) < 1.5 { usleep(10_000) }
            let running = p.isRunning
            if running { kill(p.processIdentifier, SIGKILL) }
            let result = finish(p)
            XCTAssertFalse(running, "round \(i): still running 1.5 s after the signal")
            if result.status == 130 {
                stopped += 1
                XCTAssertTrue(result.err.contains("glimt-pure scan: stopped (\(signal == SIGINT ? "Ctrl-C" : "SIGTERM"))"), result.err)
            } else {
                XCTAssertTrue([0, 1].contains(result.status) || result.status == signal, "round \(i): \(result.status) \(result.err)")
            }
        }
        print("of 6 signals, \(stopped) stopped a scan at work; the others came after it had ended")
    }

    /// A scan waiting for another one's turn is stopped by a signal too, within a second.
    func testASignalStopsAScanWaitingForAnother() throws {
        let videos = library.appendingPathComponent("videos")
        try GeneratedClips.write(Array(GeneratedClips.days.prefix(1)), to: videos.path)
        XCTAssertEqual(try glimt("scan", videos.path, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
        try FileLock.withLock(store.appendingPathComponent(".scan.lock").path) {
            for signal in [SIGTERM, SIGINT] {
                let p = try start(["scan", videos.path, "--timezone", "UTC", "--library", store.path])
                let errors = p.standardError as! Pipe
                var said = Data()
                let deadline = Date().addingTimeInterval(30)
                while !String(decoding: said, as: UTF8.self).contains("waiting for it to finish") && Date() < deadline {
                    said += errors.fileHandleForReading.availableData
                }
                kill(p.processIdentifier, signal)
                let signalled = Date()
                while p.isRunning && Date().timeIntervalSince(signalled) < 1.5 { usleep(10_000) }
                let running = p.isRunning
                if running { kill(p.processIdentifier, SIGKILL) }
                p.waitUntilExit()
                XCTAssertFalse(running, "still waiting 1.5 s after the signal")
                XCTAssertEqual(p.terminationStatus, 130)
            }
        }
    }
}
