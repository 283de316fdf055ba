import Foundation
import TestSupport
import XCTest

/// `pick --apply`: the choices file the review page saves, as a person may have edited it: each
/// entry that cannot be applied is one line naming it, the rest are applied, nothing twice.
final class ChoicesFileTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }
    private var clips: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        clips = try GeneratedClips.write(to: library.appendingPathComponent("videos").path)
        XCTAssertEqual(try glimt("scan", library.appendingPathComponent("videos").path, "--library", store.path, "--timezone", "UTC", "-q").status, 0)
    }

    private func write(_ choices: [[String: Any]], person: Any = NSNull(), extra: [String: Any] = [:]) throws -> String {
        var file: [String: Any] = ["glimt": "choices", "version": 1, "person": person, "made": "2026-12-01T10:00:00Z", "choices": choices]
        file.merge(extra) { _, new in new }
        let path = library.appendingPathComponent("glimt-choices.json").path
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func days() throws -> [String: [String: Any]] {
        let run = try glimt("days", "--library", store.path, "--no-refs", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        let list = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: list.map { ($0["day"] as! String, $0) })
    }

    func testGoodChoicesAreAppliedAndBadOnesAreOneLineEach() throws {
        let before = try days()
        let file = try write([
            ["day": "2024-05-01", "action": "pick", "video": clips[1], "at": 0.4],
            ["day": "2024-05-02", "action": "exclude"],
            ["day": "2024-05-09", "action": "exclude"],  // no video that day
            ["day": "2024-02-30", "action": "exclude"],  // no such day
            ["day": "2024-05-03", "action": "pick", "video": clips[1], "at": 0.2],  // a video of another day
            ["day": "2024-05-03", "action": "pick", "video": clips[3], "at": 99],  // past its end
            ["day": "2024-05-03", "action": "dance"],  // unknown action
            ["day": "2024-05-01", "action": "auto"],  // a second choice for one day
            ["action": "exclude"],  // no day
            ["day": "2024-05-03", "action": "pick", "video": "/nowhere/x.mp4", "at": 0.1],
        ])
        let run = try glimt("pick", "--apply", file, "--library", store.path)
        XCTAssertEqual(run.status, 1, run.err)
        let lines = run.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 8, run.err)
        for (i, line) in lines.enumerated() {
            XCTAssertTrue(line.hasPrefix("glimt-pure pick: \(file): choices["), "line \(i): \(line)")
            XCTAssertTrue(line.hasSuffix("; left out"), "line \(i): \(line)")
        }
        XCTAssertTrue(run.err.contains("choices[2] (2024-05-09): the library has no video of that day"), run.err)
        XCTAssertTrue(run.err.contains("choices[3]: '2024-02-30' is not a calendar day"), run.err)
        XCTAssertTrue(run.err.contains("choices[4] (2024-05-03): \(clips[1]): is not a video or photo of 2024-05-03"), run.err)
        XCTAssertTrue(run.err.contains("is not inside the video"), run.err)
        XCTAssertTrue(run.err.contains("choices[6] (2024-05-03): 'dance' is not pick, exclude, include or auto"), run.err)
        XCTAssertTrue(run.err.contains("choices[7] (2024-05-01): a second choice for the day"), run.err)
        XCTAssertTrue(run.err.contains("choices[8].day is missing; left out"), run.err)
        XCTAssertTrue(run.err.contains("choices[9] (2024-05-03): /nowhere/x.mp4: is not in the library"), run.err)
        XCTAssertEqual(run.out, "applied 2 choices: 1 pinned, 1 excluded, 0 brought back, 0 back to automatic; 8 left out (named above)\n")

        let after = try days()
        XCTAssertEqual(after["2024-05-01"]?["status"] as? String, "pinned")
        XCTAssertEqual(((after["2024-05-01"]?["pick"] as? [String: Any])?["start"] as? Double) ?? -1, 0.4, accuracy: 1e-9)
        XCTAssertEqual(after["2024-05-02"]?["status"] as? String, "excluded")
        XCTAssertEqual(
            after["2024-05-03"]?["status"] as? String, before["2024-05-03"]?["status"] as? String, "the day of only refused choices is as it was")

        // The same file again changes nothing more: a pin is replaced by itself, an exclusion kept.
        XCTAssertEqual(try glimt("pick", "--apply", file, "--library", store.path).status, 1)
        XCTAssertEqual(try days().mapValues { $0["status"] as? String }, after.mapValues { $0["status"] as? String })

        // Back to automatic and included again, by a second file.
        let undo = try write([["day": "2024-05-01", "action": "auto"], ["day": "2024-05-02", "action": "include"]])
        XCTAssertEqual(
            try glimt("pick", "--apply", undo, "--library", store.path).out,
            "applied 2 choices: 0 pinned, 0 excluded, 1 brought back, 1 back to automatic\n")
        XCTAssertEqual(try days().mapValues { $0["status"] as? String }, before.mapValues { $0["status"] as? String })
    }

    func testADamagedOrForeignFileIsOneLineAndAppliesNothing() throws {
        let before = try days()
        let path = library.appendingPathComponent("bad.json")
        for (bytes, reason) in [
            ("{ not json", "it is not valid JSON"), ("[]", "not a choices file"),
            ("{\"glimt\": \"picks\", \"version\": 1, \"choices\": []}", "its \"glimt\" is 'picks'"),
            ("{\"glimt\": \"choices\", \"version\": 9, \"choices\": []}", "version 9 is not one this glimt reads"),
        ] {
            try bytes.write(to: path, atomically: true, encoding: .utf8)
            let run = try glimt("pick", "--apply", path.path, "--library", store.path)
            XCTAssertEqual(run.status, 1, bytes)
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, run.err)
            XCTAssertTrue(run.err.contains(reason), "\(bytes): \(run.err)")
        }
        // Someone else's choices are not applied to the wrong person.
        let theirs = try write([["day": "2024-05-02", "action": "exclude"]], person: "Leo")
        let wrong = try glimt("pick", "--apply", theirs, "--library", store.path)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.err.contains("the library has no person called 'Leo'"), wrong.err)
        XCTAssertEqual(try days().mapValues { $0["status"] as? String }, before.mapValues { $0["status"] as? String })
        XCTAssertEqual(try glimt("pick", "2024-05-01", "--apply", theirs, "--library", store.path).status, 64, "--apply takes no DAY")
    }

    /// A key given twice in one object would be read as its first value, silently: refused in
    /// one line naming the place, and nothing is applied.
    func testADuplicateKeyIsRefusedAndNothingApplied() throws {
        let before = try days()
        let path = library.appendingPathComponent("dup.json")
        for (text, place) in [
            (
                #"{"glimt": "choices", "version": 1, "person": null, "choices": [{"day": "2024-05-02", "action": "exclude", "action": "include"}]}"#,
                "choices[0]: the key \"action\" is given twice"
            ),
            (
                #"{"glimt": "choices", "version": 1, "version": 1, "person": null, "choices": []}"#,
                "the top level: the key \"version\" is given twice"
            ),
            (
                #"{"glimt": "choices", "version": 1, "person": null, "choices": [{"day": "2024-05-01", "action": "pick", "video": "x", "at": 1, "\u0061t": 2}]}"#,
                "choices[0]: the key \"at\" is given twice"
            ),
        ] {
            try text.write(to: path, atomically: true, encoding: .utf8)
            let run = try glimt("pick", "--apply", path.path, "--library", store.path)
            XCTAssertEqual(run.status, 1, text)
            XCTAssertEqual(run.err, "glimt-pure pick: \(path.path): \(place); a key may be given once\n")
        }
        XCTAssertEqual(try days().mapValues { $0["status"] as? String }, before.mapValues { $0["status"] as? String })
    }

    /// A choices file saved on another system: CRLF line ends, a UTF-8 byte order mark, UTF-16
    /// (as Windows tools save it) are read as the same choices; bytes that are not text are one line.
    func testAChoicesFileFromAnotherSystemIsReadTheSameOrRefusedInOneLine() throws {
        let text =
            "{\r\n  \"glimt\": \"choices\",\r\n  \"version\": 1,\r\n  \"person\": null,\r\n  \"choices\": [{\"day\": \"2024-05-02\", \"action\": \"exclude\"}]\r\n}\r\n"
        let path = library.appendingPathComponent("other.json")
        let encodings: [(String, Data)] = [
            ("CRLF", Data(text.utf8)), ("UTF-8 with BOM", Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)),
            ("UTF-16 with BOM", text.data(using: .utf16)!), ("UTF-16LE", text.data(using: .utf16LittleEndian)!),
            ("UTF-16BE", text.data(using: .utf16BigEndian)!),
        ]
        for (name, bytes) in encodings {
            XCTAssertEqual(try glimt("include", "2024-05-02", "--library", store.path).status, 0)
            try bytes.write(to: path)
            let run = try glimt("pick", "--apply", path.path, "--library", store.path)
            XCTAssertEqual(run.status, 0, "\(name): \(run.err)")
            XCTAssertEqual(run.out, "applied 1 choice: 0 pinned, 1 excluded, 0 brought back, 0 back to automatic\n", name)
            XCTAssertEqual(try days()["2024-05-02"]?["status"] as? String, "excluded", name)
        }
        for (bytes, reason) in [
            (Data([0x7B, 0xFF, 0xFE, 0x7D]), "not UTF-8 text (byte 2 is 0xff)"),
            (Data([0xFF, 0xFE, 0x7B, 0x00, 0x00, 0xD8]), "broken UTF-16"),
        ] {
            try bytes.write(to: path)
            let run = try glimt("pick", "--apply", path.path, "--library", store.path)
            XCTAssertEqual(run.status, 1)
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, run.err)
            XCTAssertTrue(run.err.contains(reason), run.err)
        }
    }
}
