import Foundation
import XCTest
import TestSupport

/// A family's library from the shell: two people, one scan, each person's days, the family film.
final class PeopleCommandTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }

    private func run(_ args: String...) throws -> Run { try glimt(args + ["--library", store.path]) }

    /// Obama as Barack, Biden as Joe, the sample's clips scanned once.
    private func family() throws {
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        XCTAssertEqual(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").status, 0)
        let videos = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for clip in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4"] {
            try FileManager.default.copyItem(at: Self.repositoryRoot.appendingPathComponent("Sample/videos/\(clip)"), to: videos.appendingPathComponent(clip))
        }
        XCTAssertEqual(try run("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
    }

    /// --person naming no one of the library is a usage mistake, as a misspelt option is: exit
    /// 64, one line, with the name probably meant when one is close.
    func testAnUnknownPersonIsAUsageMistake() throws {
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        XCTAssertEqual(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").status, 0)
        let film = library.appendingPathComponent("film.mp4").path
        for args in [["days", "--person", "Barak"], ["film", "--out", film, "--person", "Barak"], ["pick", "2024-05-01", "--auto", "--person", "Barak"],
                     ["exclude", "2024-05-01", "--person", "Barak"], ["reference", "list", "--person", "Barak"], ["reference", "suggest", "--person", "Barak"],
                     ["reference", "remove", "1", "--person", "Barak"]] {
            let mistake = try glimt(args + ["--library", store.path])
            XCTAssertEqual(mistake.status, 64, "\(args): \(mistake.err)")
            XCTAssertEqual(mistake.err, "glimt-pure \(args[0]): the library has no person called 'Barak' (did you mean 'Barack'?) (people: Barack, Joe)\n", "\(args)")
        }
        let far = try run("days", "--person", "Nobody")
        XCTAssertEqual(far.status, 64)
        XCTAssertEqual(far.err, "glimt-pure days: the library has no person called 'Nobody' (people: Barack, Joe)\n", "nothing close: no guess")
        XCTAssertEqual(try run("reference", "list", "--person", "joe").status, 0, "names are matched whatever their case")
        XCTAssertFalse(FileManager.default.fileExists(atPath: film))
    }

    func testEachPersonsDaysAndTheFamilyFilm() throws {
        try family()
        let unnamed = try run("days")
        XCTAssertEqual(unnamed.status, 64)
        XCTAssertEqual(unnamed.err, "glimt-pure days: the library knows 2 people (Barack, Joe): say which with --person NAME\n")
        XCTAssertEqual(try run("pick", "2024-05-03", "--auto").status, 64, "pins are a person's")
        let joe = try run("days", "--person", "Joe", "--json")
        XCTAssertEqual(joe.status, 0, joe.err)
        let reports = try JSONSerialization.jsonObject(with: Data(joe.out.utf8)) as! [[String: Any]]
        XCTAssertEqual(Set(reports.map { $0["person"] as? String }), ["Joe"], "the JSON names the person")
        XCTAssertEqual(reports.filter { $0["pick"] != nil }.map { $0["day"] as! String }, ["2024-05-04", "2024-05-07"])
        let barack = try run("days", "--person", "barack")
        XCTAssertTrue(barack.out.contains("2024-05-03  picked:") && barack.out.contains("Barack found"), barack.out)
        XCTAssertTrue(barack.out.contains("2024-05-07  no-person: Barack is in none of its 1 video"), barack.out)

        let out = library.appendingPathComponent("family.mp4").path
        let film = try run("film", "--everyone", "--caption", "date+names", "--out", out)
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.out.hasPrefix("wrote \(out): 3 days"), film.out)
        let everyone = try run("days", "--everyone")
        XCTAssertTrue(everyone.out.contains("2024-05-04  picked: ") && everyone.out.contains("with Barack, Joe"), everyone.out)
        XCTAssertEqual(try run("film", "--everyone", "--person", "Joe", "--out", out, "-y").status, 64)
        let calendar = try run("calendar", "--everyone", "--sheet", library.appendingPathComponent("us.png").path)
        XCTAssertEqual(calendar.status, 0, calendar.err)
        let sheet = try run("show", "2024-05-04", "--person", "Joe", "--sheet", library.appendingPathComponent("joe.png").path)
        XCTAssertEqual(sheet.status, 0, sheet.err)
    }

    func testPeopleAreListedRenamedAndRemovedWithTheirChoices() throws {
        try family()
        let list = try run("people")
        XCTAssertEqual(list.status, 0, list.err)
        XCTAssertTrue(list.out.hasPrefix("Barack: 1 reference, found on 2 of 3 days with video\n"), list.out)
        XCTAssertTrue(list.out.contains("Joe: 1 reference, found on 2 of 3 days with video\n"), list.out)
        let json = try JSONSerialization.jsonObject(with: Data(try run("people", "--json").out.utf8)) as! [[String: Any]]
        XCTAssertEqual(json.map { $0["name"] as! String }, ["Barack", "Joe"])
        XCTAssertEqual(json.map { $0["daysFound"] as! Int }, [2, 2])

        // A face of Joe's added to Barack is refused, naming Joe.
        let wrong = try run("reference", "add", fixture("yunet/biden2.png"), "--face", "1", "--person", "Barack")
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.err.contains("looks more like Joe"), wrong.err)

        XCTAssertEqual(try run("pick", "2024-05-04", "--person", "Joe", "--video", library.appendingPathComponent("videos/waving_with_biden.mp4").path, "--at", "1").status, 0)
        XCTAssertEqual(try run("people", "rename", "Joe", "Joseph").out, "renamed Joe to Joseph\n")
        XCTAssertTrue(try run("days", "--person", "Joseph").out.contains("2024-05-04  pinned:"), "the pin follows the rename")
        XCTAssertEqual(try run("people", "rename", "Joseph", "Barack").status, 1, "names are one person's")
        XCTAssertEqual(try run("people", "rename", "Joseph", "-x").status, 64)

        let ask = try run("people", "remove", "Joseph")
        XCTAssertEqual(ask.status, 64, "no terminal to ask on: -y is needed")
        XCTAssertTrue(ask.err.contains("add -y"), ask.err)
        let removed = try run("people", "remove", "Joseph", "-y")
        XCTAssertEqual(removed.status, 0, removed.err)
        XCTAssertEqual(removed.out, "removed Joseph, their 1 reference, pins and excluded days\n")
        XCTAssertEqual(try run("days").status, 0, "one person left: --person may be left out")
        // A new Joe starts with no pin of the old one's.
        XCTAssertEqual(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").status, 0)
        XCTAssertTrue(try run("days", "--person", "Joe").out.contains("2024-05-04  picked:"), "the old pin went with the old Joe")
    }

    func testHelpAndTheManualDocumentPeople() throws {
        XCTAssertTrue(try glimt("--help").out.contains("people      List the people the library looks for"))
        let manual = try glimt("manual").out
        XCTAssertTrue(manual.contains(".SS people") && manual.contains("\\-\\-person"), "the man page has people and --person")
        XCTAssertTrue(try glimt("help", "days").out.contains("--person NAME"))
        XCTAssertTrue(try glimt("help", "film").out.contains("--everyone"))
    }
}
