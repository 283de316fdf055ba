import Foundation
import TestSupport
import XCTest

/// Whatever `days` keeps or recomputes, what it says follows what changes a judgement: a
/// reference added or removed, a pin set or lifted, an exclusion, a setting given for the run.
/// (The guard for judgements kept between runs: one left stale fails here.)
final class StaleJudgementTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }

    private func run(_ args: [String]) throws -> Run {
        let r = try glimt(args + ["--library", store.path])
        XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
        return r
    }

    /// Each day's status, and its pick's video name and start, as `days --json` says.
    private func days(_ extra: [String] = []) throws -> [String: String] {
        let out = try run(["days", "--json"] + extra).out
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.map { d in
                let pick = d["pick"] as? [String: Any]
                let video = (pick?["video"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "-"
                let start = (pick?["start"] as? Double).map { String(format: "%.2f", $0) } ?? "-"
                return (d["day"] as! String, "\(d["status"] as! String) \(video) \(start)")
            })
    }

    func testDaysFollowsEveryChangeOfReferencesPinsExclusionsAndSettings() throws {
        let videos = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for clip in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4"] {
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent("Sample/videos/\(clip)"), to: videos.appendingPathComponent(clip))
        }
        _ = try run(["reference", "add", fixture("yunet/obama.png"), "--person", "Barack"])
        _ = try run(["scan", videos.path, "--timezone", "UTC", "-q"])
        let first = try days()
        XCTAssertEqual(first["2024-05-03"]?.hasPrefix("picked podium.mp4"), true, "\(first)")
        XCTAssertEqual(first["2024-05-07"]?.hasPrefix("no-person"), true, "Biden alone: \(first)")
        XCTAssertEqual(try days(), first, "nothing changed, nothing changes")

        // A reference: Biden's photo given to Barack by mistake finds Biden's day; taken back, it is gone.
        _ = try run(["reference", "add", fixture("yunet/biden.png"), "--person", "Barack", "--force"])
        XCTAssertEqual(try days()["2024-05-07"]?.hasPrefix("picked biden_after_midnight.mp4"), true)
        _ = try run(["reference", "remove", "2", "--person", "Barack"])
        XCTAssertEqual(try days(), first, "the reference removed")

        // A pin, and the automatic choice back.
        _ = try run(["pick", "2024-05-04", "--video", videos.appendingPathComponent("waving_with_biden.mp4").path, "--at", "1.5"])
        XCTAssertEqual(try days()["2024-05-04"], "pinned waving_with_biden.mp4 1.50")
        // What did not change is not judged again: a run costs what changed.
        XCTAssertTrue(try run(["days", "-v"]).err.contains("0 days judged, 3 kept from an earlier run"))
        _ = try run(["pick", "2024-05-04", "--video", videos.appendingPathComponent("waving_with_biden.mp4").path, "--at", "2"])
        XCTAssertTrue(try run(["days", "-v"]).err.contains("1 day judged, 2 kept from an earlier run"))
        _ = try run(["pick", "2024-05-04", "--auto"])
        XCTAssertEqual(try days(), first, "the pin lifted")

        // An exclusion, and back.
        _ = try run(["exclude", "2024-05-03"])
        XCTAssertEqual(try days()["2024-05-03"]?.hasPrefix("excluded"), true)
        _ = try run(["include", "2024-05-03"])
        XCTAssertEqual(try days(), first, "the day included again")

        // A video left out of every day, and back: the day's other video takes it.
        let podium = videos.appendingPathComponent("podium.mp4").path
        _ = try run(["exclude", podium])
        XCTAssertNotEqual(try days()["2024-05-03"], first["2024-05-03"], "podium.mp4 excluded")
        _ = try run(["include", podium])
        XCTAssertEqual(try days(), first, "the video included again")

        // A video dated by hand moves its day's judgement to the new day, and back.
        _ = try run(["date", "set", podium, "2024-06-01"])
        let moved = try days()
        XCTAssertEqual(moved["2024-06-01"]?.hasPrefix("picked podium.mp4"), true, "\(moved)")
        XCTAssertNotEqual(moved["2024-05-03"], first["2024-05-03"])
        _ = try run(["date", "clear", podium])
        XCTAssertEqual(try days(), first, "the date given back")

        // A stored row changed in place (the day kept, its time given): the pick says the new time.
        _ = try run(["date", "set", podium, "2024-05-03T09:30"])
        XCTAssertTrue(try run(["days", "--json", "--from", "2024-05-03", "--to", "2024-05-03"]).out.contains("\"captureTime\":\"09:30"))
        _ = try run(["date", "clear", podium])
        XCTAssertFalse(try run(["days", "--json", "--from", "2024-05-03", "--to", "2024-05-03"]).out.contains("\"captureTime\":\"09:30"))

        // The person renamed: their days say the new name.
        _ = try run(["people", "rename", "Barack", "Obama"])
        let renamed = try run(["days", "--json", "--person", "Obama"]).out
        XCTAssertTrue(renamed.contains("\"person\":\"Obama\"") && !renamed.contains("Barack"), renamed)
        _ = try run(["people", "rename", "Obama", "Barack"])

        // A setting for the run: a threshold no face reaches finds no one, and the next run without it does.
        let strict = try days(["--match-threshold", "0.95", "--strong-threshold", "0.99"])
        XCTAssertEqual(strict["2024-05-03"]?.hasPrefix("no-person"), true, "\(strict)")
        XCTAssertEqual(try days(), first, "the setting was for that run only")
    }
}
