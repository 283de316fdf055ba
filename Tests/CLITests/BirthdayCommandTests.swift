import Foundation
import GlimtPure
import MediaIO
import TestSupport
import XCTest

/// A person's birthday from the shell, and the film's age captions that count from it.
final class BirthdayCommandTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }

    private func run(_ args: String...) throws -> Run { try glimt(args + ["--library", store.path]) }

    private func assertUsageMistake(_ run: Run, saying part: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 64, run.err, file: file, line: line)
        XCTAssertEqual(run.err.split(separator: "\n").count, 1, "one line: \(run.err)", file: file, line: line)
        XCTAssertTrue(run.err.contains(part), "says '\(part)': \(run.err)", file: file, line: line)
    }

    /// `people set NAME --born DAY` is stored, listed (also as JSON), kept through a rename and
    /// forgotten with `none`; a day that cannot be a birthday is one line and changes nothing.
    func testABirthdayIsStoredListedAndKeptThroughARename() throws {
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        let set = try run("people", "set", "barack", "--born", "2022-03-14")
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertEqual(set.out, "Barack: born 2022-03-14\n")
        XCTAssertTrue(try run("people").out.hasPrefix("Barack, born 2022-03-14: 1 reference, "))
        func born() throws -> [String?] {
            let json = try JSONSerialization.jsonObject(with: Data(try run("people", "--json").out.utf8)) as! [[String: Any]]
            return json.map { $0["born"] as? String }
        }
        XCTAssertEqual(try born(), ["2022-03-14"])
        XCTAssertEqual(try run("people", "rename", "Barack", "Obama").status, 0)
        XCTAssertEqual(try born(), ["2022-03-14"], "the birthday follows the rename")

        for day in ["2023-02-29", "2024-13-01", "14 March", "2999-01-01"] {
            assertUsageMistake(try run("people", "set", "Obama", "--born", day), saying: "the birthday")
        }
        assertUsageMistake(try run("people", "set", "Obama", "--born", "2999-01-01"), saying: "is in the future")
        assertUsageMistake(try run("people", "set", "Obama", "--born", "2023-02-29"), saying: "'2023-02-29' is not a calendar day")
        assertUsageMistake(try run("people", "set", "Obama"), saying: "--born DAY")
        assertUsageMistake(try run("people", "--born", "2022-03-14"), saying: "--born is for 'people set NAME --born DAY'")
        XCTAssertEqual(try born(), ["2022-03-14"], "a refused birthday changes nothing")
        XCTAssertEqual(try run("people", "set", "Nobody", "--born", "2022-03-14").status, 1)

        XCTAssertEqual(try run("people", "set", "Obama", "--born", "none").out, "Obama: no birthday\n")
        XCTAssertEqual(try born(), [nil])
        XCTAssertTrue(try run("people").out.hasPrefix("Obama: 1 reference, "))
    }

    /// An age caption with no birthday known is a usage mistake said at once, naming the fix,
    /// whatever the film is made from; nothing is analysed or written.
    func testAnAgeCaptionWithoutABirthdayIsRefusedBeforeAnyWork() throws {
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        let out = library.appendingPathComponent("film.mp4")
        let picks = library.appendingPathComponent("picks.json")
        try Data(#"{"picks": []}"#.utf8).write(to: picks)
        for args in [
            ["film", "--out", out.path, "--caption", "age", "--library", store.path],
            ["film", "--out", out.path, "--caption", "date+age", "--person", "Barack", "--library", store.path],
            ["film", fixture("analysis"), "--no-refs", "--out", out.path, "--caption", "age"],
            ["film", "--picks", picks.path, "--out", out.path, "--caption", "date+age"],
        ] {
            let started = Date()
            let refused = try glimt(args)
            assertUsageMistake(refused, saying: "needs a birthday: give the person one (glimt-pure people set NAME --born YYYY-MM-DD)")
            XCTAssertTrue(refused.err.contains("or give the film one (--born YYYY-MM-DD)"), refused.err)
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(args) refused before analysing")
        }
        assertUsageMistake(try run("film", "--out", out.path, "--caption", "age", "--born", "2024-02-30"), saying: "not a calendar day")
        assertUsageMistake(try run("film", "--out", out.path, "--born", "2022-03-14"), saying: "give it with --caption age or date+age")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: library.path).filter { $0.hasSuffix(".mp4") }, [])

        // The person's stored birthday is enough: the film goes on (to find the library unscanned).
        XCTAssertEqual(try run("people", "set", "Barack", "--born", "2022-03-14").status, 0)
        let on = try run("film", "--out", out.path, "--caption", "age")
        XCTAssertFalse(on.err.contains("needs a birthday"), on.err)
    }

    /// A real film with the date and age in its captions, from saved picks and --born: one day
    /// after the birth, one before it (said once, its caption the date alone).
    func testAFilmWithDateAndAgeCaptions() throws {
        let clip = fixture("analysis/crowd_a_6to7.mp4")
        let box: [String: Any] = ["x": 0, "y": 0, "width": 150, "height": 270]
        let parts: [String: Any] = ["aesthetics": 1, "sharpness": 1, "face": 1]
        let picks: [[String: Any]] = ["2021-12-25", "2024-05-04"].map { day in
            [
                "day": day, "video": clip, "start": 0.0, "length": 1.0, "score": 1, "parts": parts, "crop": box, "zoom": 1,
                "dateSource": "file name", "candidates": 1,
            ]
        }
        let file = library.appendingPathComponent("picks.json")
        try JSONSerialization.data(withJSONObject: ["picks": picks]).write(to: file)
        let out = library.appendingPathComponent("aged.mp4").path
        let film = try glimt(
            "film", "--picks", file.path, "--out", out, "--caption", "date+age", "--born", "2022-02-04", "--size", "180x320", "--mute")
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.out.hasPrefix("wrote \(out): 2 days"), film.out)
        let note = "glimt-pure film: 1 day is before the birthday, so its caption says no age: 2021-12-25\n"
        XCTAssertEqual(film.err.components(separatedBy: note).count, 2, "said once: \(film.err)")
        XCTAssertEqual(try VideoReader(path: out).info.duration, 2, accuracy: 0.1)
        // Both days show the same second of the clip, so where their frames differ is the caption.
        // At 180 pixels wide each date takes two lines (rows 258 on); the age two more, above them.
        let frames = try VideoReader(path: out).frames(from: 0, to: 2, depth: .eightBit).collect().map(\.picture.rgb8)
        XCTAssertEqual(frames.count, 60)
        let before = frames[0], after = frames[30]
        let differing = before.pixels.indices.filter { abs(Int(before.pixels[$0]) - Int(after.pixels[$0])) > 100 }
        XCTAssertTrue(differing.contains { $0 / 3 / 180 < 250 }, "the second day's caption says more: its age")
        XCTAssertTrue(differing.allSatisfy { $0 / 3 / 180 > 200 }, "only the caption, at the bottom")
    }
}
