import Foundation
import XCTest

/// Files a person can edit by hand (the reference list, a saved picks file): a broken one is a
/// one-line error naming the file and what is wrong in it, exit 1, never a crash.
final class UserFileTests: CLITestCase {
    private var referenceList: URL { library.appendingPathComponent("glimt/references.json") }

    /// Adds one reference, then lets `edit` change the stored list's JSON.
    private func editedReferenceList(_ edit: (inout [String: Any]) -> Void) throws {
        XCTAssertEqual(try glimt("reference", "add", fixture("yunet/obama.png")).status, 0)
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: referenceList)) as! [String: Any]
        edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: referenceList)
    }

    private func assertOneLineError(_ run: Run, naming file: URL, saying reason: String, file f: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 1, run.err, file: f, line: line)
        let lines = run.err.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.count, 1, "one line: \(run.err)", file: f, line: line)
        XCTAssertTrue(run.err.contains(file.path), "names \(file.path): \(run.err)", file: f, line: line)
        XCTAssertTrue(run.err.contains(reason), "says '\(reason)': \(run.err)", file: f, line: line)
    }

    func testAnEmbeddingOfTheWrongLengthIsAOneLineError() throws {
        try editedReferenceList { json in
            var refs = json["references"] as! [[String: Any]]
            refs[0]["embedding"] = Array((refs[0]["embedding"] as! [Any]).dropLast())
            json["references"] = refs
        }
        let reason = "references[0].embedding: the embedding has 127 numbers; an SFace embedding has 128"
        assertOneLineError(try glimt("faces", "--match", fixture("yunet/obama.png")), naming: referenceList, saying: reason)
        assertOneLineError(try glimt("analyze", fixture("analysis/two_people.mp4")), naming: referenceList, saying: reason)
        assertOneLineError(try glimt("reference", "list"), naming: referenceList, saying: reason)
    }

    func testOtherBrokenReferenceListsAreOneLineErrors() throws {
        // What a hand edit does to the first reference, and what glimt must say of it.
        let cases: [(reason: String, key: String, value: Any?)] = [
            ("references[0].embedding should be a list", "embedding", "lots of numbers"),
            ("references[0].landmarks is missing", "landmarks", nil),
            ("references[0]: it needs 5 finite landmarks, has 1", "landmarks", [["x": 1, "y": 2]]),
            ("references[0]: its thumbnail '../../etc/passwd' is not a file name in the references folder", "thumbnail", "../../etc/passwd"),
            ("the embedding is all zeros", "embedding", [Int](repeating: 0, count: 128)),
        ]
        for (reason, key, value) in cases {
            try? FileManager.default.removeItem(at: library.appendingPathComponent("glimt"))
            try editedReferenceList { json in
                var refs = json["references"] as! [[String: Any]]
                refs[0][key] = value
                json["references"] = refs
            }
            assertOneLineError(try glimt("faces", "--match", fixture("yunet/obama.png")), naming: referenceList, saying: reason)
        }
        try "{ not json".write(to: referenceList, atomically: true, encoding: .utf8)
        assertOneLineError(try glimt("reference", "list"), naming: referenceList, saying: "it is not valid JSON")
    }

    func testABrokenPicksFileIsAOneLineError() throws {
        let analysis = try glimt("analyze", fixture("analysis/two_people.mp4"), "--no-refs", "--json", "--timezone", "UTC")
        XCTAssertEqual(analysis.status, 0, analysis.err)
        let saved = try JSONSerialization.jsonObject(with: Data(analysis.out.utf8)) as! [String: Any]
        let file = library.appendingPathComponent("picks.json")
        let cases: [(String, String, Any?)] = [
            ("start", "picks[0] (", -3.0),
            ("day", "picks[0] (2024-02-30): '2024-02-30' is not a calendar day (write YYYY-MM-DD)", "2024-02-30"),
            ("crop", "is not a rectangle inside a picture", ["x": 0, "y": 0, "width": 0, "height": 100]),
            ("video", "picks[0].video is missing", nil),
            ("score", "picks[0].score should be a number", "high"),
        ]
        for (key, reason, value) in cases {
            var json = saved
            var picks = json["picks"] as! [[String: Any]]
            picks[0][key] = value
            json["picks"] = picks
            try JSONSerialization.data(withJSONObject: json).write(to: file)
            let run = try glimt("film", "--picks", file.path, "--out", library.appendingPathComponent("film.mp4").path)
            assertOneLineError(run, naming: file, saying: reason)
            if key == "start" { XCTAssertTrue(run.err.contains("): start -3.0 is not a time in the video"), run.err) }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("film.mp4").path))
    }
}
