import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `scan` as processes: killed at any moment it loses nothing, two at once take turns.
final class ScanCommandTests: CLITestCase {
    private var root: URL { library }

    private func scan(_ folder: URL, library: URL, workers: Int) throws -> LibraryScan.Summary {
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "UTC")!
        return try LibraryScan(library: library, options: options, workers: workers).run([folder.path])
    }

    /// Killed with SIGKILL at random moments, three times over, then finished: the store is
    /// exactly that of one uninterrupted one-thread scan, and no finished video is decoded again.
    func testAScanKilledAtRandomPointsResumesToTheSameStore() throws {
        let videos = root.appendingPathComponent("videos")
        let faces = ["yunet/obama.png", "yunet/biden.png", "yunet/obama2.png", "yunet/obama3.png", "yunet/obama4.png"]
        let clips = (0..<10).map { GeneratedClips.Clip(day: String(format: "202405%02d", 1 + $0 / 2), face: faces[$0 % faces.count]) }
        try GeneratedClips.write(clips, to: videos.path, seconds: 3)
        let whole = root.appendingPathComponent("whole")
        XCTAssertEqual(try scan(videos, library: whole, workers: 1).analysed, clips.count)
        let expected = try LibraryStore(library: whole).dump()

        let killed = root.appendingPathComponent("killed")
        var generator = SystemRandomNumberGenerator()
        var committed: [Int] = []
        // Kills spread over the scan: the first while models load or the first videos decode.
        for window in [200_000...600_000, 400_000...1_500_000, 300_000...2_000_000] as [ClosedRange<UInt32>] {
            let p = try GlimtBinary.start(["scan", videos.path, "--library", killed.path, "--timezone", "UTC", "-q"])
            usleep(UInt32.random(in: window, using: &generator))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let now = try LibraryStore(library: killed).counts().videos
            XCTAssertGreaterThanOrEqual(now, committed.last ?? 0, "a killed scan never loses a committed video")
            committed.append(now)
        }
        XCTAssertLessThan(committed[0], clips.count, "the first kill came before the scan ended")
        let rest = try scan(videos, library: killed, workers: 2)
        XCTAssertEqual(rest.analysed, clips.count - committed.last!, "only the videos not yet committed are analysed")
        XCTAssertEqual(rest.unchanged, committed.last!)
        let perVideo = rest.analysed > 0 ? rest.framesDecoded / rest.analysed : 0
        XCTAssertLessThanOrEqual(perVideo, 3 * 10 + 2, "each analysed video decoded once (30 frames), none of the committed ones")
        XCTAssertEqual(try LibraryStore(library: killed).dump(), expected, "the resumed store equals an uninterrupted one-thread scan")
        print("killed scans had committed \(committed) of \(clips.count) videos; the last scan analysed \(rest.analysed)")
    }

    /// Two scans of one library at once: the second waits and says so, nothing is analysed twice.
    func testTwoScansAtOnceTakeTurns() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try GeneratedClips.write(to: videos.path)
        let args = ["scan", videos.path, "--library", library.path, "--timezone", "UTC", "--json"]
        let a = try GlimtBinary.start(args)
        usleep(100_000)
        let b = try GlimtBinary.start(args)
        var outputs: [(Int32, LibraryScan.Summary, String)] = []
        for p in [a, b] {
            let run = GlimtBinary.finish(p)
            outputs.append((run.status, try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(run.out.utf8)), run.err))
        }
        XCTAssertEqual(outputs.map(\.0), [0, 0], outputs.map(\.2).joined())
        XCTAssertEqual(outputs.map(\.1.analysed).reduce(0, +), paths.count, "each video analysed once")
        XCTAssertTrue(outputs[1].2.contains("another scan is working on this library; waiting for it to finish"), outputs[1].2)
        XCTAssertEqual(try LibraryStore(library: library).counts().videos, paths.count)
    }
}
