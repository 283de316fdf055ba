import Foundation
import GlimtPure
import TestSupport
import XCTest

/// A family's library from the shell: two people, one scan, each person's days, the family film.
final class PeopleCommandTests: CLITestCase {
    private var store: URL { library.appendingPathComponent("store") }

    private func run(_ args: String...) throws -> Run { try run(args) }
    private func run(_ args: [String]) throws -> Run { try glimt(args + ["--library", store.path]) }

    /// Obama as Barack, Biden as Joe, the sample's clips scanned once.
    private func family() throws {
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        XCTAssertEqual(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").status, 0)
        let videos = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for clip in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4"] {
            try FileManager.default.copyItem(
                at: Self.repositoryRoot.appendingPathComponent("Sample/videos/\(clip)"), to: videos.appendingPathComponent(clip))
        }
        XCTAssertEqual(try run("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
    }

    /// --person naming no one of the library is a usage mistake, as a misspelt option is: exit
    /// 64, one line, with the name probably meant when one is close.
    func testAnUnknownPersonIsAUsageMistake() throws {
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        XCTAssertEqual(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").status, 0)
        let film = library.appendingPathComponent("film.mp4").path
        for args in [
            ["days", "--person", "Barak"], ["film", "--out", film, "--person", "Barak"], ["pick", "2024-05-01", "--auto", "--person", "Barak"],
            ["exclude", "2024-05-01", "--person", "Barak"], ["reference", "list", "--person", "Barak"],
            ["reference", "suggest", "--person", "Barak"],
            ["reference", "remove", "1", "--person", "Barak"],
        ] {
            let mistake = try glimt(args + ["--library", store.path])
            XCTAssertEqual(mistake.status, 64, "\(args): \(mistake.err)")
            XCTAssertEqual(
                mistake.err, "glimt-pure \(args[0]): the library has no person called 'Barak' (did you mean 'Barack'?) (people: Barack, Joe)\n",
                "\(args)")
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
        XCTAssertTrue(list.out.hasPrefix("Barack: 1 reference, found on 2 of 3 days with video or photos\n"), list.out)
        XCTAssertTrue(list.out.contains("Joe: 1 reference, found on 2 of 3 days with video or photos\n"), list.out)
        let json = try JSONSerialization.jsonObject(with: Data(try run("people", "--json").out.utf8)) as! [[String: Any]]
        XCTAssertEqual(json.map { $0["name"] as! String }, ["Barack", "Joe"])
        XCTAssertEqual(json.map { $0["daysFound"] as! Int }, [2, 2])

        // A face of Joe's added to Barack is refused, naming Joe.
        let wrong = try run("reference", "add", fixture("yunet/biden2.png"), "--face", "1", "--person", "Barack")
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.err.contains("looks more like Joe"), wrong.err)

        XCTAssertEqual(
            try run(
                "pick", "2024-05-04", "--person", "Joe", "--video", library.appendingPathComponent("videos/waving_with_biden.mp4").path, "--at", "1"
            ).status, 0)
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

    private func assertOneLine(_ run: Run, status: Int32 = 1, saying parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.err, file: file, line: line)
        XCTAssertEqual(run.err.split(separator: "\n").count, 1, "one line: \(run.err)", file: file, line: line)
        for part in parts { XCTAssertTrue(run.err.contains(part), "says '\(part)': \(run.err)", file: file, line: line) }
    }

    private var index: URL { store.appendingPathComponent("references.json") }

    /// A name the library does not know makes a person, and says so; one a letter or two from a
    /// person's name is a typo until `--new` says otherwise, and changes nothing.
    func testANewPersonIsSaidAndACloseMisspellingIsRefused() throws {
        let barack = try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack")
        XCTAssertEqual(barack.status, 0, barack.err)
        XCTAssertTrue(barack.out.hasPrefix("new person Barack\nadded reference 1 of Barack: "), barack.out)
        XCTAssertTrue(try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe").out.hasPrefix("new person Joe\n"))
        let same = try run("reference", "add", fixture("yunet/obama2.png"), "--person", "barack")
        XCTAssertEqual(same.status, 0, same.err)
        XCTAssertFalse(same.out.contains("new person"), "a name in other letters' case is the same person: \(same.out)")

        let before = try Data(contentsOf: index)
        let stranger = fixture("yunet/collins_nasa.png")
        for (typo, known) in [("Barak", "Barack"), ("Barrack", "Barack"), ("Brack", "Barack"), ("Jo", "Joe"), ("Jeo", "Joe"), ("JOEY", "Joe")] {
            assertOneLine(
                try run("reference", "add", stranger, "--person", typo),
                saying: ["no person is called '\(typo)'", "close to \(known)", "--person \(known)", "--new"])
        }
        XCTAssertEqual(try Data(contentsOf: index), before, "a refused name changes nothing")
        let meant = try run("reference", "add", stranger, "--person", "Barak", "--new")
        XCTAssertEqual(meant.status, 0, meant.err)
        XCTAssertTrue(meant.out.hasPrefix("new person Barak\n"), meant.out)
        XCTAssertEqual(try run("people", "--json").out.contains("\"Barak\""), true)
        assertOneLine(
            try run("reference", "add", fixture("yunet/obama3.png"), "--person", "Joe", "--new"), saying: ["there is already a person called Joe"])
    }

    /// `everyone` is the family (`--everyone`): no person may be called so, in any case; a
    /// library that already has one is told how to rename them, and nothing crashes.
    func testEveryoneIsTheFamilysWordNotAPersonsName() throws {
        for name in ["everyone", "Everyone", "EVERYONE"] {
            assertOneLine(
                try run("reference", "add", fixture("yunet/obama.png"), "--person", name), saying: ["'\(name)'", "--everyone", "another name"])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: index.path), "no person was made")
        XCTAssertEqual(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").status, 0)
        assertOneLine(try run("people", "rename", "Barack", "EveryOne"), status: 64, saying: ["'EveryOne'", "--everyone"])

        // A library from before the word was kept.
        var text = try String(contentsOf: index, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"name\" : \"Barack\"", with: "\"name\" : \"Everyone\"")
        try text.write(to: index, atomically: true, encoding: .utf8)
        _ = try LibraryStore(library: store)
        let listed = try run("people")
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertTrue(listed.out.contains("Everyone: 1 reference"), listed.out)
        XCTAssertTrue(listed.out.contains("glimt-pure people rename Everyone NEWNAME"), listed.out)
        for args in [["days", "--person", "everyone"], ["days"], ["exclude", "2024-05-01"], ["reference", "add", fixture("yunet/obama2.png")]] {
            assertOneLine(try run(args), saying: ["is called 'Everyone'", "glimt-pure people rename Everyone NEWNAME"])
        }
        let renamed = try run("people", "rename", "everyone", "Barack")
        XCTAssertEqual(renamed.status, 0, renamed.err)
        XCTAssertEqual(try run("exclude", "2024-05-01").status, 0)
    }

    /// A person's references are numbered 1 to 5 for them, whoever else the library knows, and
    /// `reference remove` takes the numbers `reference list` and `people` show.
    func testReferenceNumbersArePerPerson() throws {
        XCTAssertTrue(try run("reference", "add", fixture("yunet/obama.png"), "--person", "Barack").out.contains("added reference 1 of Barack: "))
        let joe = try run("reference", "add", fixture("yunet/biden.png"), "--person", "Joe")
        XCTAssertTrue(joe.out.contains("added reference 1 of Joe: "), joe.out)
        XCTAssertTrue(try run("reference", "add", fixture("yunet/obama2.png"), "--person", "Barack").out.contains("added reference 2 of Barack: "))
        let list = try run("reference", "list").out
        let numbered = list.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(numbered, ["Barack:", "1", "2", "Joe:", "1"], list)
        let people = try run("people").out.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(people, ["Barack:", "1", "2", "Joe:", "1"])

        assertOneLine(try run("reference", "remove", "1"), status: 64, saying: ["2 people", "--person NAME"])
        let removed = try run("reference", "remove", "1", "--person", "Joe")
        XCTAssertEqual(removed.status, 0, removed.err)
        XCTAssertTrue(removed.out.hasPrefix("removed reference 1 of Joe "), removed.out)
        assertOneLine(try run("reference", "remove", "3", "--person", "Barack"), saying: ["Barack has no reference 3", "1, 2"])
        XCTAssertEqual(try run("reference", "remove", "1", "--person", "Barack").status, 0)
        XCTAssertTrue(
            try run("reference", "add", fixture("yunet/obama3.png"), "--person", "Barack").out.contains("added reference 1 of Barack: "),
            "the lowest free number")
        let json = try JSONSerialization.jsonObject(with: Data(try run("reference", "list", "--json").out.utf8)) as! [[String: Any]]
        XCTAssertEqual(json.map { $0["person"] as? String }, ["Barack", "Barack"])
        XCTAssertEqual(Set(json.map { $0["number"] as? Int }), [1, 2])
        XCTAssertEqual(Set(json.map { $0["id"] as? Int }).count, 2, "the stored ids stay the library's own keys")
    }

    /// A face the detector is not sure of (a painting behind the person, here) may still be
    /// added, but its line says its detection score is low.
    func testAFaceOfLowDetectionScoreIsSaid() throws {
        let painting = try run("reference", "add", fixture("yunet/biden2.png"), "--face", "2", "--person", "Lake")
        XCTAssertEqual(painting.status, 0, painting.err)
        XCTAssertTrue(painting.out.contains("detection score 0.7"), painting.out)
        XCTAssertTrue(painting.out.contains("low: perhaps not a face"), painting.out)
        let face = try run("reference", "add", fixture("yunet/biden2.png"), "--face", "1", "--person", "Joe")
        XCTAssertEqual(face.status, 0, face.err)
        XCTAssertFalse(face.out.contains("detection score"), face.out)
    }

    func testHelpAndTheManualDocumentPeople() throws {
        XCTAssertTrue(try glimt("--help").out.contains("people      List the people the library looks for"))
        let manual = try glimt("manual").out
        XCTAssertTrue(manual.contains(".SS people") && manual.contains("\\-\\-person"), "the man page has people and --person")
        XCTAssertTrue(try glimt("help", "days").out.contains("--person NAME"))
        XCTAssertTrue(try glimt("help", "film").out.contains("--everyone"))
    }
}
