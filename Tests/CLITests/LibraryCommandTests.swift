import Foundation
import XCTest

/// The library as a person uses it from the shell: scan, days, pick, exclude, film, with the
/// sample's real clips.
final class LibraryCommandTests: CLITestCase {
    static let sample = repositoryRoot.appendingPathComponent("Sample")

    func testScanDaysPickExcludeAndFilmFromTheLibrary() throws {
        let videos = Self.sample.appendingPathComponent("videos").path
        let reference = Self.sample.appendingPathComponent("reference.jpg").path
        let scan = try glimt("scan", videos, "--timezone", "UTC")
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertTrue(scan.out.hasPrefix("9 videos found: 9 analysed, 0 unchanged"), scan.out)
        XCTAssertTrue(try glimt("scan", videos, "--timezone", "UTC").out.hasPrefix("9 videos found: 0 analysed, 9 unchanged"))

        let days = try glimt("days", "--ref", reference, "--json")
        XCTAssertEqual(days.status, 0, days.err)
        let reports = try JSONSerialization.jsonObject(with: Data(days.out.utf8)) as! [[String: Any]]
        XCTAssertEqual(reports.map { $0["day"] as! String }, ["2024-05-03", "2024-05-04", "2024-05-05", "2024-05-06", "2024-05-07"])
        XCTAssertEqual(reports.map { $0["status"] as! String }, ["picked", "picked", "no-person", "picked", "picked"])
        XCTAssertEqual(
            reports.map { (($0["pick"] as? [String: Any])?["video"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } },
            ["podium.mp4", "waving_with_biden.mp4", nil, "press_room_portrait.mp4", "blue_room.mp4"])

        // Pin 05-05 to the Hill address (the person is not in it) and leave 05-06 out.
        let hill = Self.sample.appendingPathComponent("videos/weekly_address_hill.mp4").path
        XCTAssertEqual(try glimt("pick", "2024-05-05", "--video", hill, "--at", "1.5").status, 0)
        XCTAssertEqual(try glimt("exclude", "2024-05-06").status, 0)
        let bad = try glimt("pick", "2024-05-05", "--video", hill, "--at", "999")
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("--at 999.00 is not inside the video"), bad.err)
        XCTAssertEqual(try glimt("exclude", "2024-02-30").status, 1, "not a day, and not a scanned file")

        let out = library.appendingPathComponent("film.mp4").path
        let film = try glimt("film", "--ref", reference, "--out", out, "--size", "180x320", "--mute", "-q")
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.out.contains("4 days"), film.out)
        XCTAssertTrue(film.out.contains("2024-05-05  \(hill)  at 1.50 s"), film.out)
        XCTAssertFalse(film.out.contains("2024-05-06  /"), "excluded day not in the film: \(film.out)")
        XCTAssertEqual(film.err, "", "-q: nothing on stderr")

        XCTAssertEqual(try glimt("pick", "2024-05-05", "--auto").status, 0)
        XCTAssertEqual(try glimt("include", "2024-05-06").status, 0)
        let back = try JSONSerialization.jsonObject(with: Data(try glimt("days", "--ref", reference, "--json").out.utf8)) as! [[String: Any]]
        XCTAssertEqual(back.map { $0["status"] as! String }, ["picked", "picked", "no-person", "picked", "picked"])
    }

    func testAnEmptyFolderSaysNoVideosFound() throws {
        let empty = library.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for (command, what) in [("scan", "videos or photos"), ("analyze", "videos or photos")] {
            let run = try glimt(command, empty.path)
            XCTAssertEqual(run.status, 1, "\(command): \(run.err)")
            XCTAssertTrue(run.err.contains("no \(what) found in \(empty.path)"), run.err)
        }
    }

    /// A command that only reads the library (days, show, calendar, the library's film, reference
    /// list) never creates one: a mistyped --library is one line and exit 1, and the folder stays
    /// missing. The commands that write create it.
    func testReadOnlyCommandsNeverCreateALibrary() throws {
        let typo = library.appendingPathComponent("libary")
        let sheet = library.appendingPathComponent("sheet.jpg").path, film = library.appendingPathComponent("film.mp4").path
        let readers: [[String]] = [
            ["days"], ["days", "--json"], ["show", "2024-05-01", "--sheet", sheet], ["calendar", "--sheet", sheet],
            ["film", "--out", film], ["reference", "list"],
        ]
        for args in readers {
            let run = try glimt(args + ["--library", typo.path])
            XCTAssertEqual(run.status, 1, "\(args): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, "\(args): \(run.err)")
            XCTAssertTrue(run.err.contains("no library in \(typo.path) ("), "\(args): \(run.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: typo.path), "\(args) created the library")
        }
        XCTAssertTrue(
            try glimt("days", "--library", typo.path).err.contains("(scan a folder into it first: glimt-pure scan FOLDER --library \(typo.path))"))
        // A library folder with references but no scan yet: no store is made either.
        XCTAssertEqual(try glimt("reference", "add", fixture("yunet/obama.png"), "--library", typo.path).status, 0)
        XCTAssertEqual(try glimt("days", "--library", typo.path).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: typo.appendingPathComponent("library.sqlite").path))
        XCTAssertEqual(try glimt("reference", "list", "--library", typo.path).status, 0)
        for (args, name) in [
            (["exclude", "2024-05-06"], "exclude"), (["include", "2024-05-06"], "include"), (["pick", "2024-05-06", "--auto"], "pick"),
            (["scan", fixture("analysis/two_people.mp4"), "-q"], "scan"),
        ] {
            let fresh = library.appendingPathComponent("new-\(name)")
            let run = try glimt(args + ["--library", fresh.path])
            XCTAssertEqual(run.status, 0, "\(name): \(run.err)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("library.sqlite").path), "\(name) creates the library")
        }
    }

    /// A store whose schema number is one glimt never wrote (here -1, patched into the file's
    /// header) is one line for every command that opens it, never a crash, and stays as it was.
    func testAStoreOfANegativeSchemaNumberIsOneLine() throws {
        let store = library.appendingPathComponent("store")
        XCTAssertEqual(try glimt("exclude", "2024-05-01", "--library", store.path).status, 0)
        let path = store.appendingPathComponent("library.sqlite")
        var bytes = try Data(contentsOf: path)
        bytes.replaceSubrange(60..<64, with: [0xFF, 0xFF, 0xFF, 0xFF])
        try bytes.write(to: path)
        for args in [
            ["days"], ["status"], ["exclude", "2024-05-02"], ["scan", fixture("analysis/two_people.mp4")], ["people"],
            ["review", "--out", library.appendingPathComponent("r").path],
        ] {
            let run = try glimt(args + ["--library", store.path])
            XCTAssertEqual(run.status, 1, "\(args): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, "\(args): \(run.err)")
            XCTAssertTrue(run.err.contains("store version -1 is not one glimt writes"), "\(args): \(run.err)")
        }
        XCTAssertEqual(try Data(contentsOf: path), bytes)
    }
}
