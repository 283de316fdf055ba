import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `glimt-pure status` and the daily timer's scan: when the library was last scanned, what is
/// new in the watched folders since (found with stat, nothing decoded), what failed; and a scan
/// that finds another at work leaves it the library with exit 0 (`--if-idle`).
final class StatusTests: CLITestCase {
    private var videos: URL { library.appendingPathComponent("videos") }

    /// `status --json` as a program reads it: its times are ISO 8601, as every --json's are.
    private func status() throws -> LibraryStatus {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(LibraryStatus.self, from: Data(try glimt("status", "--json").out.utf8))
    }

    func testStatusSaysTheLastScanWhatIsNewAndWhatFailed() throws {
        let clips = try GeneratedClips.write(Array(GeneratedClips.days.prefix(3)), to: videos.path)
        let broken = videos.appendingPathComponent("broken.mp4")
        try "not a video".write(to: broken, atomically: true, encoding: .utf8)
        XCTAssertEqual(try glimt("folders", "add", videos.path).status, 0)
        let never = try glimt("status")
        XCTAssertEqual(never.status, 1, "a command that only reads makes no library")
        XCTAssertTrue(never.err.contains("no library in"), never.err)

        XCTAssertEqual(try glimt("scan", "-q", "--timezone", "UTC").status, 1, "the broken file fails the scan")
        let after = try glimt("status")
        XCTAssertEqual(after.status, 0, after.err)
        let lines = after.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "library: \(library.appendingPathComponent("glimt").path): 3 videos, 2024-05-01 to 2024-05-02")
        XCTAssertTrue(lines[1].hasPrefix("last scan: ") && lines[1].hasSuffix(": 3 analysed, 0 unchanged of 4 found"), lines[1])
        XCTAssertEqual(lines[2], "watched folders: \(videos.path)")
        XCTAssertEqual(lines[3], "new or changed since: 0 videos")
        XCTAssertEqual(Array(lines[4...]), ["failed in the last scan: 1", "  \(broken.path): not a photo or video (no known format)"])

        // A new clip, an edited one and a moved one are new by name, size and time; none is decoded.
        try GeneratedClips.write([GeneratedClips.Clip(day: "20240509", face: "yunet/obama3.png")], to: library.appendingPathComponent("new").path)
        let fresh = videos.appendingPathComponent("fresh.mp4")
        try FileManager.default.moveItem(atPath: library.appendingPathComponent("new/VID_20240509_120000_0.mp4").path, toPath: fresh.path)
        var stamp = utimbuf(actime: 1_700_000_000, modtime: 1_700_000_000)
        XCTAssertEqual(utime(clips[0], &stamp), 0)
        let status = try self.status()
        XCTAssertEqual(status.new, [clips[0], fresh.path].sorted())
        XCTAssertEqual(status.failed.map(\.path), [broken.path], "the broken file is a failure, not new")
        XCTAssertEqual(status.lastScan?.inputs, [videos.path])
        XCTAssertFalse(status.scanning)
        let text = try glimt("status").out
        XCTAssertTrue(text.contains("new or changed since: 2 videos (glimt-pure scan)\n  \(clips[0])\n  \(fresh.path)\n"), text)

        // Without watched folders it looks where the last scan looked.
        XCTAssertEqual(try glimt("folders", "remove", videos.path).status, 0)
        let unwatched = try glimt("status").out
        XCTAssertTrue(
            unwatched.contains(
                "watched folders: none (glimt-pure folders add DIR); new videos looked for in the folders of the last scans\nnew or changed since: 2 videos"
            ), unwatched)
    }

    /// Without watched folders, one mistyped scan does not make status blind: it looks in the
    /// folders of every scan it remembers, and says it cannot look in the missing one.
    func testAMistypedScanDoesNotHideNewVideosFromStatus() throws {
        try GeneratedClips.write(Array(GeneratedClips.days.prefix(2)), to: videos.path)
        XCTAssertEqual(try glimt("scan", videos.path, "-q", "--timezone", "UTC").status, 0)
        let typo = library.appendingPathComponent("vidoes").path
        XCTAssertEqual(try glimt("scan", typo, "-q", "--timezone", "UTC").status, 1)
        try GeneratedClips.write([GeneratedClips.Clip(day: "20240509", face: "yunet/obama3.png")], to: library.appendingPathComponent("new").path)
        let fresh = videos.appendingPathComponent("fresh.mp4")
        try FileManager.default.moveItem(atPath: library.appendingPathComponent("new/VID_20240509_120000_0.mp4").path, toPath: fresh.path)

        let status = try status()
        XCTAssertEqual(status.lookedIn, [typo, videos.path], "the last scan's folder and the one before")
        XCTAssertEqual(status.new, [fresh.path])
        let text = try glimt("status").out
        XCTAssertTrue(text.contains("new videos looked for in the folders of the last scans\n"), text)
        XCTAssertTrue(text.contains("new or changed since: 1 video (glimt-pure scan)\n  \(fresh.path)\n"), text)
        XCTAssertTrue(text.contains("cannot look in: \(typo): no such file or folder\n"), text)
    }

    /// The daily timer runs `scan -q --if-idle`: while another scan holds the library it ends at
    /// once, exit 0, silent, touching nothing; status says a scan is at work.
    func testAScanThatFindsTheLibraryBusyLeavesItToTheOther() throws {
        try GeneratedClips.write(Array(GeneratedClips.days.prefix(1)), to: videos.path)
        XCTAssertEqual(try glimt("scan", videos.path, "-q", "--timezone", "UTC").status, 0)
        try GeneratedClips.write(Array(GeneratedClips.days.suffix(1)), to: library.appendingPathComponent("more").path)
        let lock = library.appendingPathComponent("glimt/.scan.lock").path
        try FileLock.withLock(lock) {
            let started = Date()
            let quiet = try glimt("scan", library.appendingPathComponent("more").path, "-q", "--if-idle")
            XCTAssertEqual(quiet.status, 0, quiet.err)
            XCTAssertEqual(quiet.err + quiet.out, "")
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "it did not wait")
            let said = try glimt("scan", library.appendingPathComponent("more").path, "--if-idle")
            XCTAssertEqual(said.status, 0)
            XCTAssertEqual(said.err, "glimt-pure scan: another scan is working on this library; leaving the work to it (--if-idle)\n")
            XCTAssertTrue(try glimt("status").out.contains("\nscanning now: another glimt-pure is scanning into this library\n"))
        }
        let status = try self.status()
        XCTAssertEqual(status.videos, 1, "nothing was scanned while the lock was held")
        XCTAssertEqual(status.lastScan?.inputs, [videos.path], "and nothing recorded")
        let idle = try glimt("scan", library.appendingPathComponent("more").path, "-q", "--if-idle", "--timezone", "UTC")
        XCTAssertEqual(idle.status, 0, idle.err)
        XCTAssertEqual(try self.status().videos, 2, "idle: it scans")
    }

    /// A time in --json is ISO 8601 (`2026-12-03T20:41:07Z`), which every language reads, never
    /// Foundation's own seconds since 2001.
    func testStatusJSONGivesTimesAsISO8601() throws {
        try GeneratedClips.write(Array(GeneratedClips.days.prefix(1)), to: videos.path)
        let before = Date()
        XCTAssertEqual(try glimt("scan", videos.path, "-q", "--timezone", "UTC").status, 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try glimt("status", "--json").out.utf8)) as? [String: Any])
        let scan = try XCTUnwrap(json["lastScan"] as? [String: Any])
        for key in ["started", "finished"] {
            let text = try XCTUnwrap(scan[key] as? String, "\(key): \(scan[key] ?? "none")")
            let time = try XCTUnwrap(ISO8601DateFormatter().date(from: text), text)
            XCTAssertLessThan(abs(time.timeIntervalSince(before)), 120, "\(key) \(text) is the scan's time")
        }
    }
}
