import Foundation
import XCTest

/// A camera roll as phones and cloud exports leave it: a Live Photo's movie beside its still, a
/// screen recording, a Takeout export dated only by its sidecar, the same video twice, slow
/// motion. `scan` then `days --json`, and `analyze --json`, each choice with its reason.
final class CameraRollTests: CLITestCase {
    /// The folder: day 05-01 a camera video (dated by its name) and a Live Photo pair; 05-02 and
    /// 05-04 only screen recordings; 05-03 a Takeout export whose file has no date; 05-05 slow
    /// motion stored slowed down; 05-06 slow motion at 120 fps; 05-07 a time-lapse; and a copy of
    /// the first video.
    private func cameraRoll() throws -> URL {
        let roll = library.appendingPathComponent("roll")
        let fm = FileManager.default
        for sub in ["backup", "Takeout/Google Photos/Photos from 2024"] {
            try fm.createDirectory(at: roll.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for name in try fm.contentsOfDirectory(atPath: fixture("camera_roll")) where name != "PROVENANCE.md" {
            try fm.copyItem(atPath: fixture("camera_roll/" + name), toPath: roll.appendingPathComponent(name).path)
        }
        try fm.copyItem(
            atPath: Self.repositoryRoot.appendingPathComponent("Sample/reference.jpg").path, toPath: roll.appendingPathComponent("IMG_0042.JPG").path)
        try fm.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: roll.appendingPathComponent("VID_20240501_100000.mp4").path)
        try fm.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: roll.appendingPathComponent("backup/copy of the party.mp4").path)
        let takeout = roll.appendingPathComponent("Takeout/Google Photos/Photos from 2024")
        try fm.copyItem(atPath: fixture("analysis/portrait_rotated.mp4"), toPath: takeout.appendingPathComponent("holiday clip.mp4").path)
        try Data(#"{"title": "holiday clip.mp4", "photoTakenTime": {"timestamp": "1714730400", "formatted": "3 May 2024, 10:00:00 UTC"}}"#.utf8)
            .write(to: takeout.appendingPathComponent("holiday clip.mp4.supplemental-metadata.json"))
        return roll
    }

    private func name(_ path: Any?) -> String? { (path as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }

    func testScanAndDaysShowEachChoiceWithItsReason() throws {
        let roll = try cameraRoll()
        let scan = try glimt("scan", roll.path, "--timezone", "UTC")
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertTrue(scan.out.hasPrefix("9 videos and 1 photo found: 9 analysed, 0 unchanged, 0 moved, 1 duplicate counted once"), scan.out)
        XCTAssertTrue(scan.err.contains("copy of the party.mp4: the same video as "), scan.err)
        let rescan = try glimt("scan", roll.path, "--timezone", "UTC")
        XCTAssertTrue(
            rescan.out.hasPrefix("9 videos and 1 photo found: 0 analysed, 9 unchanged, 0 moved, 1 duplicate counted once"),
            "the copy is not taken for a move of the first: \(rescan.out)")

        let days = try glimt("days", "--no-refs", "--json")
        XCTAssertEqual(days.status, 0, days.err)
        let reports = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(days.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(
            reports.map { $0["day"] as! String }, ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-05-05", "2024-05-06", "2024-05-07"])
        XCTAssertEqual(reports.map { $0["status"] as! String }, ["picked", "set-aside", "picked", "set-aside", "picked", "picked", "picked"])
        XCTAssertEqual(
            reports.map { name(($0["pick"] as? [String: Any])?["video"]) },
            ["VID_20240501_100000.mp4", nil, "holiday clip.mp4", nil, "slowmo_capture120.mp4", "hfr_120fps.mp4", "timelapse_capture1.mp4"])
        var candidates: [String: [String: Any]] = [:]
        for r in reports { for c in r["candidates"] as! [[String: Any]] { candidates[name(c["video"])!] = c } }
        XCTAssertEqual(candidates.count, 9, "the copy is counted once")
        // The Live Photo's still, whose copy lost its EXIF, is dated by its movie and counted once:
        // a photo of a day with a video.
        let still = try XCTUnwrap(candidates["IMG_0042.JPG"])
        XCTAssertEqual(still["kind"] as? String, "live-photo-still")
        XCTAssertEqual(still["dateSource"] as? String, "creation_time")
        XCTAssertNil(still["setAside"])
        let live = try XCTUnwrap(candidates["IMG_0042.MOV"])
        XCTAssertEqual(live["kind"] as? String, "live-photo")
        XCTAssertEqual(live["setAside"] as? String, "a Live Photo's movie (--live-photos includes them)")
        XCTAssertTrue((live["kindReason"] as? String ?? "").contains("a Live Photo pairing identifier, the photo IMG_0042.JPG beside it"), "\(live)")
        for screen in ["RPReplay_Final1714640400.MP4", "clip_0007.mp4"] {
            XCTAssertEqual(candidates[screen]?["kind"] as? String, "screen-recording", screen)
            XCTAssertEqual(candidates[screen]?["setAside"] as? String, "a screen recording (--screen-recordings includes them)")
        }
        XCTAssertTrue(
            (candidates["clip_0007.mp4"]?["kindReason"] as? String ?? "").contains("sampled frames look like a screen"),
            "found by its frames, not its name")
        XCTAssertEqual(candidates["holiday clip.mp4"]?["dateSource"] as? String, "Google Takeout sidecar")
        XCTAssertEqual(candidates["slowmo_capture120.mp4"]?["kind"] as? String, "slow-motion")
        XCTAssertEqual(candidates["hfr_120fps.mp4"]?["kind"] as? String, "slow-motion")
        XCTAssertEqual(candidates["timelapse_capture1.mp4"]?["kind"] as? String, "time-lapse")
        let lapse = try XCTUnwrap(reports[6]["pick"] as? [String: Any])
        XCTAssertNil(lapse["speed"], "a time-lapse's second is a second as it plays")
        XCTAssertEqual(lapse["length"] as? Double, 1)
        let slow = try XCTUnwrap(reports[4]["pick"] as? [String: Any])
        XCTAssertEqual(slow["speed"] as? Double, 4, "captured at 120, played at 30")
        XCTAssertEqual(slow["length"] as? Double, 4, "a real second is 4 s of the file")

        // Asked for, Live Photos and screen recordings compete like any video.
        let all = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try glimt("days", "--no-refs", "--json", "--live-photos", "--screen-recordings").out.utf8))
                as? [[String: Any]])
        XCTAssertEqual(all.map { $0["status"] as! String }, ["picked", "picked", "picked", "picked", "picked", "picked", "picked"])
        let first = try XCTUnwrap((all[0]["candidates"] as? [[String: Any]])?.first { name($0["video"]) == "IMG_0042.JPG" })
        XCTAssertEqual(first["setAside"] as? String, "a Live Photo's still; its movie competes (--live-photos)", "counted once: the movie")
    }

    func testAnalyzeCountsACopyOnceAndSaysWhatItSetAside() throws {
        let roll = try cameraRoll()
        let run = try glimt("analyze", roll.path, "--no-refs", "--json", "--timezone", "UTC")
        XCTAssertEqual(run.status, 0, run.err)
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let duplicates = try XCTUnwrap(result["duplicates"] as? [[String: Any]])
        XCTAssertEqual(duplicates.map { [name($0["path"]), name($0["sameAs"])] }, [["copy of the party.mp4", "VID_20240501_100000.mp4"]])
        let videos = try XCTUnwrap(result["videos"] as? [[String: Any]])
        XCTAssertEqual(videos.count, 9, "the Live Photo's still too")
        let setAside = videos.filter { $0["setAside"] != nil }.compactMap { name($0["path"]) }.sorted()
        XCTAssertEqual(setAside, ["IMG_0042.MOV", "RPReplay_Final1714640400.MP4", "clip_0007.mp4"])
        let picks = try XCTUnwrap(result["picks"] as? [[String: Any]])
        XCTAssertEqual(
            picks.compactMap { name($0["video"]) },
            ["VID_20240501_100000.mp4", "holiday clip.mp4", "slowmo_capture120.mp4", "hfr_120fps.mp4", "timelapse_capture1.mp4"])
        // Times are ISO 8601, as in every --json: the fixtures' creation_time.
        let instants = Dictionary(uniqueKeysWithValues: videos.map { (name($0["path"])!, ($0["capture"] as? [String: Any])?["instant"]) })
        XCTAssertEqual(instants["hfr_120fps.mp4"] as? String, "2024-05-06T09:00:00Z")
        XCTAssertEqual(instants["IMG_0042.MOV"] as? String, "2024-05-01T09:00:00Z")
        let skipped = try XCTUnwrap(result["skippedDays"] as? [String: String])
        XCTAssertEqual(skipped["2024-05-02"], "every video of it is set aside: a screen recording (--screen-recordings includes them)")

        let text = try glimt("analyze", roll.path, "--no-refs", "--timezone", "UTC")
        XCTAssertTrue(
            text.err.contains(
                "glimt-pure analyze: \(roll.path)/backup/copy of the party.mp4: the same video as \(roll.path)/VID_20240501_100000.mp4; counted once"),
            text.err)
        XCTAssertTrue(text.out.contains("set aside: \(roll.path)/IMG_0042.MOV: a Live Photo's movie"), text.out)
    }
}
