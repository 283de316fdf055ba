import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `pick`, `exclude` and `date set` from the shell: a choice is either kept as it was said, or
/// refused in one line when it is made, never accepted and then quietly not honoured.
final class ChoiceCommandTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }
    private var clips: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        clips = try GeneratedClips.write(to: library.appendingPathComponent("videos").path)
        XCTAssertEqual(try glimt("scan", library.appendingPathComponent("videos").path, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
    }

    private func run(_ args: String...) throws -> Run { try glimt(args + ["--library", store.path]) }

    private func days() throws -> [String: DayReport] {
        let run = try glimt("days", "--library", store.path, "--no-refs", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        let list = try JSONDecoder().decode([DayReport].self, from: Data(run.out.utf8))
        return Dictionary(uniqueKeysWithValues: list.map { ($0.day, $0) })
    }

    private func assertOneLine(_ run: Run, status: Int32 = 1, saying parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.err, file: file, line: line)
        XCTAssertEqual(run.err.split(separator: "\n").count, 1, "one line: \(run.err)", file: file, line: line)
        for part in parts { XCTAssertTrue(run.err.contains(part), "says '\(part)': \(run.err)", file: file, line: line) }
    }

    /// Choosing a second on a day means wanting the day: a pin on an excluded day brings it back,
    /// and says so, from the command line and from the review page's choices alike.
    func testAPinOnAnExcludedDayBringsTheDayBack() throws {
        XCTAssertEqual(try run("exclude", "2024-05-02").status, 0)
        let pin = try run("pick", "2024-05-02", "--video", clips[2], "--at", "0.2")
        XCTAssertEqual(pin.status, 0, pin.err)
        XCTAssertEqual(pin.out, "2024-05-02: pinned \(clips[2]) at 0.20 s; the day was excluded, and is included again\n")
        XCTAssertEqual(try days()["2024-05-02"]?.status, .pinned, "the pinned second is in the film")

        XCTAssertEqual(try run("exclude", "2024-05-03").status, 0)
        let file = library.appendingPathComponent("glimt-choices.json")
        let choices: [String: Any] = [
            "glimt": "choices", "version": 1, "person": NSNull(),
            "choices": [["day": "2024-05-03", "action": "pick", "video": clips[3], "at": 0.3]],
        ]
        try JSONSerialization.data(withJSONObject: choices).write(to: file)
        let apply = try run("pick", "--apply", file.path)
        XCTAssertEqual(apply.status, 0, apply.err)
        XCTAssertTrue(apply.out.hasPrefix("applied 1 choice: 1 pinned (1 on a day that was excluded, included again), 0 excluded"), apply.out)
        let after = try days()["2024-05-03"]
        XCTAssertEqual(after?.status, .pinned)
        XCTAssertEqual(after?.pick?.start ?? -1, 0.3, accuracy: 1e-9)
    }

    /// `days` and `film` honour a pin when a frame of the analysis lies in its second; `pick`
    /// holds a pin to the same rule when it is made, and says the latest second it could take.
    func testAPinThatCouldNotBeHonouredIsRefusedWhenMade() throws {
        let video = try XCTUnwrap(LibraryStore(library: store).videos(onDay: "2024-05-02").first)
        let lastFrame = try XCTUnwrap(video.frames.last?.time)
        XCTAssertLessThan(lastFrame, video.duration - 0.05, "the clip's last 0.05 s hold no sampled frame")
        let late = try run("pick", "2024-05-02", "--video", clips[2], "--at", String(format: "%.3f", video.duration - 0.04))
        assertOneLine(late, saying: [clips[2], "no analysed frame", "the latest second that can be pinned in it starts at "])
        XCTAssertNil(try LibraryStore(library: store).choices(person: LibraryStore.noOne).pins["2024-05-02"], "nothing pinned")
        let said = try XCTUnwrap(
            late.err.range(of: #"starts at [0-9.]+ s"#, options: .regularExpression).map { late.err[$0].dropFirst(10).dropLast(2) })
        let latest = try XCTUnwrap(Double(said))
        XCTAssertEqual(latest, lastFrame, accuracy: 0.011, "the latest second starts at the last analysed frame")

        let past = try run("pick", "2024-05-02", "--video", clips[2], "--at", String(format: "%.2f", latest + 0.01))
        assertOneLine(past, saying: ["the latest second that can be pinned in it starts at \(said) s"])
        let ok = try run("pick", "2024-05-02", "--video", clips[2], "--at", String(said))
        XCTAssertEqual(ok.status, 0, ok.err)
        let day = try days()["2024-05-02"]
        XCTAssertEqual(day?.status, .pinned, "the latest second said is honoured")
        XCTAssertEqual(day?.pick?.start ?? -1, latest, accuracy: 1e-9)
    }

    /// A video's length is said as it plays: a WebM whose clock starts at 3 s (cut from a stream)
    /// is 2 s long, not the 5 s where its last frame ends on that clock, and a pin past its end
    /// says so.
    func testAPinPastTheEndSaysTheLengthAsTheVideoPlays() throws {
        let webm = library.appendingPathComponent("videos/VID_20240506_120000.webm").path
        try FileManager.default.copyItem(atPath: fixture("media/vp9_offset.webm"), toPath: webm)
        XCTAssertEqual(try glimt("scan", webm, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
        XCTAssertEqual(try LibraryStore(library: store).videos(onDay: "2024-05-06").first?.duration ?? 0, 2.0, accuracy: 0.01)
        let past = try run("pick", "2024-05-06", "--video", webm, "--at", "2.5")
        assertOneLine(past, saying: ["\(webm): --at 2.50 is not inside the video (0 to 2.00 s)"])
    }

    /// Days far in the past or the future are refused where they are given, as `exclude` and
    /// `date set` refuse them: a range from year 1 or to 9999 was taken and counted in millions
    /// of "days without video", and a calendar of 2200 was drawn empty.
    func testDaysOutsideWhatGlimtHandlesAreRefusedWhereGiven() throws {
        let latest = CaptureDate.latestDay()
        for (args, option, day) in [
            (["days", "--from", "0001-01-01"], "--from", "0001-01-01"), (["days", "--to", "9999-12-31"], "--to", "9999-12-31"),
            (["film", "--from", "2100-01-01", "--out", library.appendingPathComponent("f.mp4").path], "--from", "2100-01-01"),
            (["review", "--out", library.appendingPathComponent("r").path, "--to", "1899-12-31"], "--to", "1899-12-31"),
        ] {
            let refused = try glimt(args + ["--library", store.path, "--no-refs"])
            XCTAssertEqual(refused.status, 64, "\(args): \(refused.err)")
            XCTAssertEqual(
                refused.err,
                "glimt-pure \(args[0]): \(option) \(day) is outside the days glimt handles (1900-01-01 to \(latest), "
                    + "tomorrow in the zone furthest ahead)\n", "\(args)")
        }
        let scan = try glimt("scan", library.appendingPathComponent("videos").path, "--library", store.path, "--from", "1850-01-01")
        XCTAssertEqual(scan.status, 64, scan.err)
        XCTAssertEqual(
            try glimt("days", "--library", store.path, "--no-refs", "--from", "1900-01-01", "--to", latest, "-q").status, 0, "the bounds themselves")
        let calendar = try glimt(
            "calendar", "--library", store.path, "--no-refs", "--year", "2200", "--sheet", library.appendingPathComponent("y.jpg").path)
        XCTAssertEqual(calendar.status, 1, calendar.err)
        XCTAssertEqual(
            calendar.err,
            "glimt-pure calendar: 2200 is outside the years glimt handles (1900 to \(latest.prefix(4)), "
                + "the year of tomorrow in the zone furthest ahead)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("y.jpg").path))
    }

    /// A pin that the library can no longer honour (kept from an older glimt, or its video gone)
    /// is said with its real reason.
    func testAPinNotHonouredSaysWhy() throws {
        let library = try LibraryStore(library: store)
        let video = try XCTUnwrap(library.videos(onDay: "2024-05-02").first)
        try library.pin(day: "2024-05-02", contentKey: video.contentKey, start: video.duration - 0.01, person: LibraryStore.noOne)
        let unusable = try days()["2024-05-02"]
        XCTAssertEqual(unusable?.status, .picked)
        let reason = try XCTUnwrap(unusable?.reason)
        XCTAssertTrue(
            reason.hasPrefix("its pinned second (at \(String(format: "%.2f", video.duration - 0.01)) s of \(video.path)) has no analysed frame"),
            reason)
        XCTAssertFalse(reason.contains("no longer in the library"), reason)

        let gone = try XCTUnwrap(library.videos(onDay: "2024-05-03").first)
        try library.pin(day: "2024-05-03", contentKey: gone.contentKey, start: 0.2, person: LibraryStore.noOne)
        try library.forget(contentKey: gone.contentKey)
        try GeneratedClips.write(
            [GeneratedClips.Clip(day: "20240503", face: "yunet/obama3.png")], to: self.library.appendingPathComponent("more").path)
        XCTAssertEqual(
            try glimt("scan", self.library.appendingPathComponent("more").path, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
        XCTAssertTrue(try days()["2024-05-03"]?.reason?.hasPrefix("its pinned video is no longer in the library") == true)
    }

    /// A day a person gives lies where the calendar, the review page and the film can use it: from
    /// 1900 to tomorrow (the latest day a capture date is believed); `include` takes any day,
    /// so that what an older glimt kept can be undone.
    func testDaysOutsideWhatTheProductHandlesAreRefused() throws {
        for day in ["0001-01-01", "1582-10-10", "1899-12-31", "2999-01-01", "9999-12-31"] {
            assertOneLine(try run("exclude", day), saying: ["\(day) is outside the days glimt handles", "1900-01-01"])
            assertOneLine(try run("date", "set", clips[0], day), saying: ["\(day) is outside the days glimt handles"])
        }
        XCTAssertEqual(try LibraryStore(library: store).choices(person: LibraryStore.noOne).excludedDays, [], "nothing excluded")
        XCTAssertEqual(try LibraryStore(library: store).days(), ["2024-05-01", "2024-05-02", "2024-05-03"], "nothing re-dated")
        XCTAssertEqual(try run("exclude", "1900-01-01").status, 0)
        XCTAssertEqual(try run("include", "0001-01-01").status, 0, "include only takes away")
        let set = try run("date", "set", clips[0], "2024-05-09T17:30")
        XCTAssertEqual(set.status, 0, set.err)
    }
}
