import Foundation
import GlimtPure
import TestSupport
import XCTest

/// The first week with a year's folder, as a new user meets it: days that fit on a screen, a
/// copied clip given its real day, a word when no one is looked for, a scan stopped and resumed,
/// progress that names what it does, completions that know the subcommands.
final class WeekOfUseTests: CLITestCase {
    private var videos: URL { library.appendingPathComponent("videos") }
    private var store: URL { library.appendingPathComponent("store") }

    @discardableResult
    private func scan(_ extra: String...) throws -> Run {
        let run = try glimt(["scan", videos.path, "--library", store.path, "--timezone", "UTC"] + extra)
        XCTAssertEqual(run.status, 0, run.err)
        return run
    }

    /// The fixture days (05-01 to 05-03) and one clip seven weeks later.
    @discardableResult
    private func writeDays() throws -> [String] {
        try GeneratedClips.write(GeneratedClips.days + [GeneratedClips.Clip(day: "20240620", face: "yunet/obama2.png")], to: videos.path)
    }

    func testDaysListsTheDaysWithVideoAndARunWithoutIsOneLine() throws {
        try writeDays()
        try scan("-q")
        let days = try glimt("days", "--library", store.path, "--no-refs")
        XCTAssertEqual(days.status, 0, days.err)
        let lines = days.out.split(separator: "\n").filter { !$0.hasPrefix("    ") }
        XCTAssertEqual(lines.map { String($0.prefix(10)) }, ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-06-20"])
        XCTAssertEqual(String(lines[3]), "2024-05-04 .. 2024-06-19  -  47 days without video")
        let all = try glimt("days", "--library", store.path, "--no-refs", "--all")
        XCTAssertEqual(all.out.split(separator: "\n").filter { $0.hasSuffix("-  no video") }.count, 47, "--all lists every day")
        let json = try glimt("days", "--library", store.path, "--no-refs", "--json")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as! [Any]).count, 4, "days with video")
        let allJSON = try glimt("days", "--library", store.path, "--no-refs", "--json", "--all")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(allJSON.out.utf8)) as! [Any]).count, 51)
        // One day without video between two with: its own line, said the same way.
        let narrow = try glimt("days", "--library", store.path, "--no-refs", "--from", "2024-06-19", "--to", "2024-06-20")
        XCTAssertTrue(narrow.out.hasPrefix("2024-06-19  -  no video\n2024-06-20  picked"), narrow.out)
    }

    func testACopiedClipGetsItsRealDayByHandAndKeepsItThroughMovesAndRescans() throws {
        let clips = try GeneratedClips.write(to: videos.path)
        // A copy with no date in its name or metadata: dated by its file's time, the copy's day.
        let copy = videos.appendingPathComponent("copied.mp4")
        try FileManager.default.moveItem(atPath: clips[2], toPath: copy.path)
        var stamp = utimbuf(actime: 1_733_011_200, modtime: 1_733_011_200)  // 2024-12-01 00:00 UTC
        XCTAssertEqual(utime(copy.path, &stamp), 0)
        try scan("-q")
        let before = try glimt("days", "--library", store.path, "--no-refs")
        XCTAssertTrue(before.out.contains("2024-12-01  picked: \(copy.path)"), before.out)
        XCTAssertTrue(before.out.contains("(dated by file time!)"), before.out)
        XCTAssertEqual(try glimt("pick", "2024-12-01", "--video", copy.path, "--at", "0.2", "--library", store.path).status, 0)

        let set = try glimt("date", "set", copy.path, "2024-05-02T17:30", "--library", store.path)
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(
            set.out,
            "\(copy.path): a video of 2024-05-02 17:30 (set by hand; it was 2024-12-01)\n"
                + "  the pin of 2024-12-01 on it is removed: the video is no longer of that day\n")
        let after = try glimt("days", "--library", store.path, "--no-refs")
        XCTAssertFalse(after.out.contains("2024-12-01"), "the copy's day is gone: \(after.out)")
        XCTAssertTrue(after.out.contains("copied.mp4") && after.out.contains("date set by hand"), after.out)
        XCTAssertFalse(after.err.contains("dated only by file modification time"), after.err)

        // Moved and rescanned: the day set by hand stays with the content.
        let moved = library.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: videos, to: moved)
        let rescan = try glimt("scan", moved.path, "--library", store.path, "--timezone", "Asia/Tokyo", "-q")
        XCTAssertEqual(rescan.status, 0, rescan.err)
        let json = try glimt("days", "--library", store.path, "--no-refs", "--json", "--from", "2024-05-02", "--to", "2024-05-02")
        XCTAssertTrue(json.out.contains("\"dateSource\":\"set by hand\""), json.out)
        XCTAssertTrue(json.out.contains(moved.appendingPathComponent("copied.mp4").path), json.out)

        let clear = try glimt("date", "clear", moved.appendingPathComponent("copied.mp4").path, "--library", store.path)
        XCTAssertEqual(clear.status, 0, clear.err)
        XCTAssertTrue(clear.out.contains("a video of 2024-12-01 again, from its file modification time"), clear.out)
        let again = try glimt("date", "clear", moved.appendingPathComponent("copied.mp4").path, "--library", store.path)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.hasSuffix("copied.mp4: has no day set by hand\n"), again.err)

        for (args, status) in [
            (["date", "set", copy.path, "2024-13-01"], 64), (["date", "set", copy.path, "2024-05-02T25:00"], 64),
            (["date", "set", copy.path], 64), (["date", "move", copy.path], 64),
            (["date", "set", library.appendingPathComponent("nope.mp4").path, "2024-05-02"], 1),
        ] as [([String], Int32)] {
            let run = try glimt(args + ["--library", store.path])
            XCTAssertEqual(run.status, status, "\(args): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, "\(args): \(run.err)")
        }
    }

    func testANoteSaysWhenNoOneIsLookedFor() throws {
        try GeneratedClips.write(to: videos.path)
        try scan("-q")
        let note = "no reference photo, so no one is looked for"
        let days = try glimt("days", "--library", store.path)
        XCTAssertTrue(days.err.contains("glimt-pure days: \(note)"), days.err)
        XCTAssertFalse(try glimt("days", "--library", store.path, "--no-refs").err.contains(note), "--no-refs asked for it")
        XCTAssertFalse(try glimt("days", "--library", store.path, "-q").err.contains(note))
        let film = try glimt("film", videos.path, "--out", library.appendingPathComponent("f.mp4").path, "--library", store.path)
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertEqual(film.err.components(separatedBy: note).count, 2, "said once: \(film.err)")
        let withRef = try glimt("days", "--library", store.path, "--ref", fixture("yunet/obama.png"))
        XCTAssertFalse(withRef.err.contains(note))
    }

    /// Ctrl-C (and the system's SIGTERM) stop a scan within a second: the finished videos stay,
    /// the line says so and how to go on, and the next scan analyses only the rest. SIGTERM comes
    /// to the daily timer's scan (`scan -q --if-idle` of the watched folders) when systemd stops
    /// it, at shutdown or `systemctl --user stop`; `status` then says the scan was stopped.
    func testAStoppedScanSaysWhatItKeptAndTheNextGoesOn() throws {
        let faces = ["yunet/obama.png", "yunet/biden.png", "yunet/obama2.png", "yunet/obama3.png"]
        let clips = (0..<8).map { GeneratedClips.Clip(day: String(format: "202405%02d", 1 + $0), face: faces[$0 % faces.count]) }
        try GeneratedClips.write(clips, to: videos.path, seconds: 3)
        XCTAssertEqual(try glimt("folders", "add", videos.path).status, 0)
        var kept = 0
        for signal in [SIGINT, SIGTERM] {
            let args = signal == SIGINT ? ["scan", videos.path, "-q"] : ["scan", "-q", "--if-idle"]
            let p = try start(args + ["--library", store.path, "--timezone", "UTC"])
            // Stop it once a video more than before is committed.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, (try? LibraryStore(library: store).counts().videos) ?? 0 <= kept { usleep(50_000) }
            kill(p.processIdentifier, signal)
            let stopped = Date()
            let run = finish(p)
            XCTAssertLessThan(Date().timeIntervalSince(stopped), signal == SIGTERM ? 1 : 1.5, "stopped within a second")
            XCTAssertEqual(run.status, 130, run.err)
            let now = try LibraryStore(library: store).counts().videos
            let name = signal == SIGINT ? "Ctrl-C" : "SIGTERM"
            XCTAssertTrue(
                run.err.contains("glimt-pure scan: stopped (\(name)): \(now - kept) of the \(clips.count - kept) videos to analyse"), run.err)
            XCTAssertTrue(run.err.contains("run the same scan again to go on from there"), run.err)
            XCTAssertGreaterThan(now, kept)
            let last = try XCTUnwrap(try LibraryStore(library: store).history(kind: .scan, limit: 1).first)
            XCTAssertTrue(last.stopped && last.finished != nil, "recorded as stopped: \(last)")
            XCTAssertEqual(last.analysed, now - kept, "\(last)")
            kept = now
            if kept == clips.count { break }
        }
        XCTAssertTrue(try glimt("status", "--library", store.path).out.contains("; stopped before the end (run it again to go on)\n"))
        let rest = try glimt("scan", videos.path, "--library", store.path, "--timezone", "UTC", "--json")
        XCTAssertEqual(rest.status, 0, rest.err)
        let summary = try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(rest.out.utf8))
        XCTAssertEqual([summary.analysed, summary.unchanged], [clips.count - kept, kept], "only the rest is analysed")
    }

    /// In a log or a pipe, each finished video is one line with its name; on a terminal one bar.
    func testPipedProgressNamesEveryVideo() throws {
        let clips = try GeneratedClips.write(to: videos.path)
        let run = try scan()
        let lines = run.err.split(separator: "\n").filter { $0.hasPrefix("scanned ") }
        XCTAssertEqual(lines.count, clips.count, run.err)
        XCTAssertEqual(
            Set(lines.map { String($0.split(separator: " ")[2]).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }),
            Set(clips.map { URL(fileURLWithPath: $0).lastPathComponent }))
        XCTAssertTrue(lines.last!.hasPrefix("scanned \(clips.count)/\(clips.count) "), run.err)
        XCTAssertEqual(try glimt("scan", videos.path, "--library", library.appendingPathComponent("quiet").path, "-q").err, "", "-q: no progress")
    }

    func testBashCompletesSubcommands() throws {
        let script = library.appendingPathComponent("glimt-pure.bash")
        try glimt("completions", "bash").out.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let shell = try GlimtBinary.run(
                [
                    "-c",
                    "source '\(script.path)'; COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); "
                        + "COMP_CWORD=\(words.count - 1); _glimt_pure; printf '%s\\n' \"${COMPREPLY[@]}\"",
                ],
                binary: URL(fileURLWithPath: "/bin/bash"))
            XCTAssertEqual(shell.status, 0, shell.err)
            return shell.out.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete(["glimt-pure", "reference", ""]), ["add", "list", "remove", "suggest"])
        XCTAssertEqual(try complete(["glimt-pure", "reference", "r"]), ["remove"])
        XCTAssertEqual(try complete(["glimt-pure", "date", ""]), ["set", "clear"])
        XCTAssertTrue(try complete(["glimt-pure", "sc"]).contains("scan"))
        XCTAssertTrue(try complete(["glimt-pure", "days", "--a"]).contains("--all"))
    }
}
