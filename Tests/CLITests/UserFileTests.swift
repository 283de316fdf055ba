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
        // The references of the library's one person.
        var people = json["people"] as! [[String: Any]]
        var person = people[0]
        edit(&person)
        people[0] = person
        json["people"] = people
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
        let reason = "people[0].references[0].embedding: the embedding has 127 numbers; an SFace embedding has 128"
        assertOneLineError(try glimt("faces", "--match", fixture("yunet/obama.png")), naming: referenceList, saying: reason)
        assertOneLineError(try glimt("analyze", fixture("analysis/two_people.mp4")), naming: referenceList, saying: reason)
        assertOneLineError(try glimt("reference", "list"), naming: referenceList, saying: reason)
    }

    func testOtherBrokenReferenceListsAreOneLineErrors() throws {
        // What a hand edit does to the first reference, and what glimt must say of it.
        let cases: [(reason: String, key: String, value: Any?)] = [
            ("people[0].references[0].embedding should be a list", "embedding", "lots of numbers"),
            ("people[0].references[0].landmarks is missing", "landmarks", nil),
            ("people[0].references[0]: it needs 5 finite landmarks, has 1", "landmarks", [["x": 1, "y": 2]]),
            (
                "people[0].references[0]: its thumbnail '../../etc/passwd' is not a file name in the references folder", "thumbnail",
                "../../etc/passwd"
            ),
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

    /// A broken entry of a picks file is left out with a one-line error naming the file and the
    /// entry, and the film is made from the others (as folder mode does with a bad file); with
    /// nothing left, no film.
    func testABrokenPickIsLeftOutAndTheRestRendered() throws {
        let analysis = try glimt("analyze", fixture("analysis/two_people.mp4"), "--no-refs", "--json", "--timezone", "UTC")
        XCTAssertEqual(analysis.status, 0, analysis.err)
        let saved = try JSONSerialization.jsonObject(with: Data(analysis.out.utf8)) as! [String: Any]
        let good = (saved["picks"] as! [[String: Any]])[0]
        let file = library.appendingPathComponent("picks.json")
        let out = library.appendingPathComponent("film.mp4").path
        let cases: [(String, String, Any?)] = [
            ("start", "picks[1] (2024-06-02): start -3.0 is not a time in the video", -3.0),
            ("day", "picks[1] (2024-02-30): '2024-02-30' is not a calendar day (write YYYY-MM-DD)", "2024-02-30"),
            ("crop", "is not a rectangle inside a picture", ["x": 0, "y": 0, "width": 0, "height": 100]),
            ("video", "picks[1].video is missing", nil),
            ("score", "picks[1].score should be a number", "high"),
            ("video", "no such file", library.appendingPathComponent("gone.mp4").path),
        ]
        for (key, reason, value) in cases {
            var bad = good
            bad["day"] = "2024-06-02"
            bad[key] = value
            try JSONSerialization.data(withJSONObject: ["picks": [good, bad]]).write(to: file)
            let run = try glimt("film", "--picks", file.path, "--out", out, "--size", "180x320", "--mute", "-q", "-y")
            XCTAssertEqual(run.status, 0, run.err)
            let lines = run.err.split(separator: "\n")
            let named = lines.filter { $0.contains(reason) }
            XCTAssertEqual(named.count, 1, "says '\(reason)' in one line: \(run.err)")
            XCTAssertTrue(named.first?.contains(key == "video" && value != nil ? value as! String : file.path) ?? false, run.err)
            XCTAssertTrue(run.err.contains("the film was made without 1 file"), run.err)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        }
        // Nothing usable: the entry named, then no film.
        try FileManager.default.removeItem(atPath: out)
        var bad = good
        bad["start"] = -1.0
        try JSONSerialization.data(withJSONObject: ["picks": [bad]]).write(to: file)
        let none = try glimt("film", "--picks", file.path, "--out", out, "--size", "180x320", "--mute")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.err.contains("picks[0]") && none.err.contains("no day has a pick"), none.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // Not a saved result at all: one line.
        try "{\"picks\": 3}".write(to: file, atomically: true, encoding: .utf8)
        assertOneLineError(try glimt("film", "--picks", file.path, "--out", out), naming: file, saying: "picks should be a list")
    }

    /// Something else where the library's store goes (another program's database, placed or
    /// linked there, with a stale WAL beside it; a file that is not SQLite) is refused in one line
    /// by every command, and left byte for byte as it was, its time too. An empty file is a new
    /// store.
    func testAStoreThatIsNotOursIsRefusedAndLeftAsItWas() throws {
        let fm = FileManager.default
        let store = library.appendingPathComponent("glimt/library.sqlite")
        let elsewhere = library.appendingPathComponent("elsewhere/recipes.sqlite")
        try fm.createDirectory(at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(atPath: fixture("hostile/recipes.sqlite"), toPath: elsewhere.path)
        let placements: [(String, () throws -> URL, String)] = [
            (
                "copied there",
                {
                    try fm.copyItem(at: elsewhere, to: store); return store
                }, "not a glimt library database (it holds other tables: recipes)"
            ),
            (
                "linked there",
                {
                    try fm.createSymbolicLink(at: store, withDestinationURL: elsewhere); return elsewhere
                }, "not a glimt library database"
            ),
            (
                "with a stale WAL",
                {
                    try fm.copyItem(at: elsewhere, to: store)
                    try Data((0..<4096).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: store.path + "-wal"))
                    return store
                }, "not a glimt library database"
            ),
            (
                "not SQLite",
                {
                    try Data(repeating: 0x41, count: 5000).write(to: store); return store
                }, "not a glimt library database (not an SQLite file)"
            ),
        ]
        let video = fixture("analysis/two_people.mp4")
        for (how, place, reason) in placements {
            try? fm.removeItem(at: store.deletingLastPathComponent())
            try fm.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
            let target = try place()
            let folder = store.deletingLastPathComponent().path
            let before = try fm.contentsOfDirectory(atPath: folder).sorted()
            let bytes = try Data(contentsOf: target), time = try fm.attributesOfItem(atPath: target.path)[.modificationDate] as! Date
            for args in [["scan", video, "-q"], ["days"], ["exclude", "2024-05-01"]] {
                let run = try glimt(args)
                XCTAssertEqual(run.status, 1, "\(how), \(args[0]): \(run.err)")
                XCTAssertEqual(run.err.split(separator: "\n").count, 1, "\(how), \(args[0]): \(run.err)")
                XCTAssertTrue(run.err.contains("\(store.path): \(reason)"), "\(how), \(args[0]): \(run.err)")
            }
            XCTAssertEqual(try Data(contentsOf: target), bytes, "\(how): the same bytes")
            XCTAssertEqual(try fm.attributesOfItem(atPath: target.path)[.modificationDate] as? Date, time, "\(how): the same time")
            XCTAssertEqual(try fm.contentsOfDirectory(atPath: folder).sorted(), before, "\(how): nothing made or removed beside it")
        }
        try? fm.removeItem(at: store.deletingLastPathComponent())
        try fm.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertTrue(fm.createFile(atPath: store.path, contents: Data()))
        XCTAssertEqual(try glimt("scan", video, "-q").status, 0, "an empty store is a new one")
    }
}
