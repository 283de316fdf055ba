import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `people remove`, `pick --apply` and `merge` killed with SIGKILL at many moments: every user
/// file (videos, photos, the choices file, the other library) is byte for byte as it was, the
/// library is whole and either as before or as after (never half of one command), what a run
/// said it did is done, and running the command again completes it.
final class KilledCommandTests: CLITestCase {
    private var videos: URL { library.appendingPathComponent("videos") }
    private var photos: URL { library.appendingPathComponent("photos") }
    private var template: URL { library.appendingPathComponent("template") }
    private var clips: [String] = []
    /// Kills per command: spread evenly over an uninterrupted run's length, each moment jittered.
    private let rounds = 20

    override func setUpWithError() throws {
        try super.setUpWithError()
        clips = try GeneratedClips.write(to: videos.path)
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for photo in ["obama.png", "biden.png"] {
            try FileManager.default.copyItem(atPath: fixture("yunet/\(photo)"), toPath: photos.appendingPathComponent(photo).path)
        }
        try must(["scan", videos.path, "--timezone", "UTC", "-q"], library: template)
        try must(["reference", "add", photos.appendingPathComponent("obama.png").path, "--person", "Barack"], library: template)
        try must(["reference", "add", photos.appendingPathComponent("biden.png").path, "--person", "Joe"], library: template)
        try must(["pick", "2024-05-01", "--video", clips[0], "--at", "0.2", "--person", "Barack"], library: template)
        try must(["exclude", "2024-05-03", "--person", "Barack"], library: template)
        try must(["pick", "2024-05-02", "--video", clips[2], "--at", "0.3", "--person", "Joe"], library: template)
        try must(["exclude", "2024-05-01", "--person", "Joe"], library: template)
    }

    private func must(_ args: [String], library folder: URL) throws {
        let run = try glimt(args + ["--library", folder.path])
        XCTAssertEqual(run.status, 0, "\(args): \(run.err)")
    }

    /// Every file under `folder`, by path relative to it, with its bytes.
    private func files(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)! {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            out[String(url.standardizedFileURL.path.dropFirst(base.count))] = try Data(contentsOf: url)
        }
        return out
    }

    private func fresh(_ name: String) throws -> URL {
        let copy = library.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: template, to: copy)
        return copy
    }

    /// How long `args` takes uninterrupted on a fresh copy of the template, in microseconds.
    private func length(_ args: [String], prepare: (URL) throws -> Void = { _ in }) throws -> UInt32 {
        let copy = try fresh("timed")
        try prepare(copy)
        let started = Date()
        let run = try glimt(args + ["--library", copy.path])
        XCTAssertEqual(run.status, 0, run.err)
        return UInt32(Date().timeIntervalSince(started) * 1e6)
    }

    /// Starts `args` on a fresh copy and kills it `after` microseconds in; the copy and what the
    /// killed run had printed.
    private func killed(_ args: [String], round: Int, after: UInt32, prepare: (URL) throws -> Void = { _ in }) throws -> (URL, Run) {
        let copy = try fresh("round-\(round)")
        try prepare(copy)
        let p = try start(args + ["--library", copy.path])
        usleep(after)
        kill(p.processIdentifier, SIGKILL)
        return (copy, finish(p))
    }

    /// The moment of round `i`: spread over 0 to 1.2 times the command's length, jittered.
    private func moment(_ i: Int, of length: UInt32) -> UInt32 {
        let step = Double(length) * 1.2 / Double(rounds)
        return UInt32(step * (Double(i) + Double.random(in: 0..<1)))
    }

    /// The store opens and reads whole; with the sqlite3 tool at hand, its integrity checks pass too.
    private func assertWhole(_ folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            check.arguments = [folder.appendingPathComponent("library.sqlite").path, "PRAGMA integrity_check; PRAGMA foreign_key_check;"]
            let out = Pipe()
            check.standardOutput = out
            try check.run()
            check.waitUntilExit()
            XCTAssertEqual(
                String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "ok\n", folder.path, file: file, line: line)
        }
        XCTAssertNoThrow(try LibraryStore(library: folder).dump(), file: file, line: line)
    }

    /// Pins and excluded days of each person, by name.
    private func choices(_ folder: URL) throws -> [String: String] {
        let store = try LibraryStore(library: folder)
        var out: [String: String] = [:]
        let people = try ReferenceStore(library: folder).people()
        for (name, id) in people.map({ ($0.name, $0.id) }) + [("(Joe's id)", 2)] {
            let c = try store.choices(person: id)
            out[name] =
                c.pins.keys.sorted().map { "\($0)=\(c.pins[$0]!.start)" }.joined(separator: ",") + " | "
                + c.excludedDays.sorted().joined(separator: ",")
        }
        return out
    }

    func testPeopleRemoveKilledAtAnyMoment() throws {
        let users = try files(library.appendingPathComponent("videos")).merging(try files(photos)) { a, _ in a }
        let before = try ReferenceStore(library: template).people()
        let barack = try XCTUnwrap(before.first { $0.name == "Barack" }), joe = try XCTUnwrap(before.first { $0.name == "Joe" })
        let barackChoices = try choices(template)["Barack"]
        let joeChoices = try choices(template)["Joe"]
        let args = ["people", "remove", "Joe", "-y"]
        let d = try length(args)
        var seen: [String: Int] = [:]
        for i in 0..<rounds {
            let (copy, run) = try killed(args, round: i, after: moment(i, of: d))
            try assertWhole(copy)
            let people = try ReferenceStore(library: copy).people()
            XCTAssertEqual(people.first { $0.name == "Barack" }, barack, "round \(i): Barack is untouched")
            let now = try choices(copy)
            XCTAssertEqual(now["Barack"], barackChoices, "round \(i)")
            let thumbnails = Set(try FileManager.default.contentsOfDirectory(atPath: copy.appendingPathComponent("references").path))
            XCTAssertTrue(thumbnails.isSuperset(of: barack.references.map(\.thumbnail)), "round \(i)")
            if let stillThere = people.first(where: { $0.name == "Joe" }) {
                // Not yet removed: Joe whole, his choices all there or all gone.
                XCTAssertEqual(stillThere, joe, "round \(i)")
                XCTAssertTrue(thumbnails.isSuperset(of: joe.references.map(\.thumbnail)), "round \(i)")
                XCTAssertTrue([joeChoices, " | "].contains(now["Joe"]), "round \(i): \(String(describing: now["Joe"]))")
                XCTAssertFalse(run.out.contains("removed Joe"), "round \(i): said done and not done")
                seen[now["Joe"] == joeChoices ? "before" : "choices forgotten", default: 0] += 1
            } else {
                XCTAssertEqual(now["(Joe's id)"], " | ", "round \(i): the name is gone, so are his pins and excluded days")
                seen["removed", default: 0] += 1
            }
            // Again, to the end: Joe and everything of his gone, nothing else.
            let again = try glimt(args + ["--library", copy.path])
            XCTAssertTrue(again.status == 0 || again.err.contains("no person called 'Joe'"), "round \(i): \(again.err)")
            XCTAssertEqual(try ReferenceStore(library: copy).people(), [barack], "round \(i)")
            XCTAssertEqual(try choices(copy)["(Joe's id)"], " | ", "round \(i)")
            XCTAssertEqual(
                Set(try FileManager.default.contentsOfDirectory(atPath: copy.appendingPathComponent("references").path)),
                Set(barack.references.map(\.thumbnail)), "round \(i): no thumbnail of Joe's is left behind")
        }
        XCTAssertEqual(
            try files(library.appendingPathComponent("videos")).merging(try files(photos)) { a, _ in a }, users, "every user file as it was")
        print("people remove killed \(rounds) times over \(d / 1000) ms: \(seen)")
    }

    func testPickApplyKilledAtAnyMoment() throws {
        let file = library.appendingPathComponent("glimt-choices.json")
        let entries: [[String: Any]] = [
            ["day": "2024-05-01", "action": "pick", "video": clips[1], "at": 0.4],
            ["day": "2024-05-03", "action": "exclude"], ["day": "2024-05-02", "action": "auto"],
        ]
        try JSONSerialization.data(withJSONObject: ["glimt": "choices", "version": 1, "person": "Joe", "choices": entries]).write(to: file)
        let users = try files(videos).merging(try files(photos)) { a, _ in a }.merging([file.path: try Data(contentsOf: file)]) { a, _ in a }
        let args = ["pick", "--apply", file.path]
        let before = try choices(template)
        let done = try fresh("done")
        try must(args, library: done)
        let after = try choices(done)
        XCTAssertNotEqual(after["Joe"], before["Joe"])
        XCTAssertEqual(after["Barack"], before["Barack"])
        let d = try length(args)
        var seen: [String: Int] = [:]
        for i in 0..<rounds {
            let (copy, run) = try killed(args, round: i, after: moment(i, of: d))
            try assertWhole(copy)
            let now = try choices(copy)
            XCTAssertTrue(now == before || now == after, "round \(i): all of the file or none of it: \(now)")
            if run.out.hasPrefix("applied 3 choices") { XCTAssertEqual(now, after, "round \(i): said done and not done") }
            seen[now == after ? "applied" : "not yet", default: 0] += 1
            let again = try glimt(args + ["--library", copy.path])
            XCTAssertEqual(again.status, 0, "round \(i): \(again.err)")
            XCTAssertEqual(try choices(copy), after, "round \(i)")
        }
        XCTAssertEqual(
            try files(videos).merging(try files(photos)) { a, _ in a }.merging([file.path: try Data(contentsOf: file)]) { a, _ in a }, users)
        print("pick --apply killed \(rounds) times over \(d / 1000) ms: \(seen)")
    }

    /// Every file of the other library as it was; SQLite reading a WAL store may only add its
    /// shared-memory index and an empty WAL beside it.
    private func assertOnlyRead(_ other: URL, was: [String: Data], round: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let now = try files(other)
        for (name, data) in was { XCTAssertEqual(now[name], data, "round \(round): \(name) is only read", file: file, line: line) }
        XCTAssertTrue(
            Set(now.keys).subtracting(was.keys).isSubset(of: ["/library.sqlite-wal", "/library.sqlite-shm"]), "round \(round): \(now.keys.sorted())",
            file: file, line: line)
        XCTAssertEqual(
            now["/library.sqlite-wal"].map(\.count) ?? 0, 0, "round \(round): nothing written to the other library's WAL", file: file, line: line)
    }

    func testMergeKilledAtAnyMoment() throws {
        let more = library.appendingPathComponent("more-videos"), other = library.appendingPathComponent("other")
        try GeneratedClips.write(
            [
                GeneratedClips.Clip(day: "20240504", face: "yunet/obama3.png"), GeneratedClips.Clip(day: "20240505", face: "yunet/obama4.png"),
                GeneratedClips.Clip(day: "20240506", face: "yunet/biden2.png"),
            ], to: more.path)
        try must(["scan", more.path, "--timezone", "UTC", "-q"], library: other)
        let theirs = try files(other)
        let users = try files(videos).merging(try files(more)) { a, _ in a }
        let args = ["merge", other.path]
        let before = try LibraryStore(library: template).dump()
        let done = try fresh("done")
        try must(args, library: done)
        let after = try LibraryStore(library: done).dump()
        XCTAssertNotEqual(after, before)
        let d = try length(args)
        var seen: [String: Int] = [:]
        for i in 0..<rounds {
            let (copy, run) = try killed(args, round: i, after: moment(i, of: d))
            try assertWhole(copy)
            let now = try LibraryStore(library: copy).dump()
            XCTAssertTrue(now == before || now == after, "round \(i): all of the other library or none of it")
            let merges = try LibraryStore(library: copy).history(kind: .merge).count
            XCTAssertEqual(merges, now == after ? 1 : 0, "round \(i): status says the merge exactly when it is in")
            if run.out.hasPrefix("merged ") { XCTAssertEqual(now, after, "round \(i): said done and not done") }
            seen[now == after ? "merged" : "not yet", default: 0] += 1
            let again = try glimt(args + ["--library", copy.path])
            XCTAssertEqual(again.status, 0, "round \(i): \(again.err)")
            XCTAssertEqual(try LibraryStore(library: copy).dump(), after, "round \(i)")
            try assertOnlyRead(other, was: theirs, round: i)
        }
        XCTAssertEqual(try files(videos).merging(try files(more)) { a, _ in a }, users)
        print("merge killed \(rounds) times over \(d / 1000) ms: \(seen)")
    }
}
