import Analysis
import Foundation
import Imaging
import TestSupport
import XCTest

@testable import Library

/// The reference list as a person and a killed run may leave it: numbers a person sees are per
/// person, ids glimt could never write are one line (not a trap when one more is added),
/// thumbnails no reference names are cleared, typos of names are told from new names.
final class ReferenceStoreTests: XCTestCase {
    private func reference(_ photo: String) throws -> Reference {
        Reference(
            id: 0, photo: photo, face: 1, box: Box(x: 1, y: 2, width: 30, height: 40), landmarks: (0..<5).map { Point(Float($0), 2) },
            quality: 0.8, embedding: try Embedding(validating: (0..<Embedding.count).map { Float($0 % 7) - 3 }), thumbnail: "",
            added: "2024-05-01T10:00:00Z")
    }

    func testNumbersArePerPersonAndAListWithoutThemGetsThem() throws {
        let store = ReferenceStore(library: temporaryFolder(self))
        for (photo, name) in [("/p/a.jpg", "Emma"), ("/p/b.jpg", "Leo"), ("/p/c.jpg", "Emma"), ("/p/d.jpg", "Leo")] {
            try store.add(try reference(photo), to: name, thumbnailPNG: [1], check: { _, _ in })
        }
        XCTAssertEqual(try store.people().map { $0.references.map(\.number) }, [[1, 2], [1, 2]])
        XCTAssertEqual(try store.people().map { $0.references.map(\.id) }, [[1, 3], [2, 4]], "ids stay the library's")
        // A list written before numbers: each person's references numbered in their order.
        var text = try String(contentsOf: store.indexURL, encoding: .utf8)
        text = text.replacingOccurrences(of: #""number" : [0-9],"#, with: "", options: .regularExpression)
        XCTAssertFalse(text.contains("\"number\""))
        try text.write(to: store.indexURL, atomically: true, encoding: .utf8)
        XCTAssertEqual(try store.people().map { $0.references.map(\.number) }, [[1, 2], [1, 2]])
        _ = try store.remove(number: 1, person: "leo")
        try store.add(try reference("/p/e.jpg"), to: "Leo", thumbnailPNG: [1], check: { _, _ in })
        XCTAssertEqual(try store.person(named: "Leo")?.references.map(\.number), [2, 1], "the lowest free number")
        XCTAssertThrowsError(try store.remove(number: 3, person: "Leo")) {
            XCTAssertTrue("\($0)".contains("Leo has no reference 3 (theirs are 1, 2;"), "\($0)")
        }
    }

    /// An id or next id glimt never writes (one more would overflow) is one line, and so is a
    /// number outside 1 to 5 or twice in one person.
    func testNumbersGlimtNeverWritesAreOneLine() throws {
        let store = ReferenceStore(library: temporaryFolder(self))
        try store.add(try reference("/p/a.jpg"), to: "Emma", thumbnailPNG: [1], check: { _, _ in })
        let good = try String(contentsOf: store.indexURL, encoding: .utf8)
        for (from, to, reason) in [
            (#""nextID" : 2"#, #""nextID" : 9223372036854775807"#, "nextID 9223372036854775807 would reuse an id, or is not a number glimt writes"),
            (#""nextPersonID" : 2"#, #""nextPersonID" : 9223372036854775807"#, "is not a number glimt writes"),
            (#""number" : 1"#, #""number" : 6"#, "its number 6 is not one of 1 to 5"),
            (#""id" : 1,"#, #""id" : 9223372036854775806,"#, "is not a number glimt writes"),
        ] {
            XCTAssertTrue(good.contains(from), from)
            try good.replacingOccurrences(of: from, with: to).write(to: store.indexURL, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try store.add(try reference("/p/b.jpg"), to: "Emma", thumbnailPNG: [1], check: { _, _ in })) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    /// A person's birthday is kept with them, through a rename; a list from before birthdays
    /// were kept reads as people without one; a birthday that is no day, or is in the future, is
    /// refused, and a hand-edited one that is no day is one line.
    func testABirthdayIsKeptWithThePerson() throws {
        let store = ReferenceStore(library: temporaryFolder(self))
        try store.add(try reference("/p/a.jpg"), to: "Emma", thumbnailPNG: [1], check: { _, _ in })
        XCTAssertFalse(try String(contentsOf: store.indexURL, encoding: .utf8).contains("born"), "none given, none written")
        XCTAssertNil(try store.person(named: "Emma")?.born)
        XCTAssertEqual(try store.setBorn("emma", to: "2020-02-29").born, "2020-02-29")
        _ = try store.rename("Emma", to: "Emmy")
        XCTAssertEqual(try store.person(named: "Emmy")?.born, "2020-02-29", "the birthday follows the rename")
        for day in ["2023-02-29", "2024-13-01", "2024-1-1", "soon", "2999-01-01"] {
            XCTAssertThrowsError(try store.setBorn("Emmy", to: day), day)
            XCTAssertNotNil(Person.problem(born: day), day)
        }
        XCTAssertEqual(try store.person(named: "Emmy")?.born, "2020-02-29", "a refused birthday changes nothing")
        XCTAssertEqual(
            Person.problem(born: "2999-01-01"), "the birthday 2999-01-01 is in the future (the latest day glimt takes is \(CaptureDate.latestDay()))")
        XCTAssertThrowsError(try store.setBorn("Leo", to: "2020-01-01")) { XCTAssertTrue("\($0)".contains("no person called 'Leo'"), "\($0)") }
        let good = try String(contentsOf: store.indexURL, encoding: .utf8)
        try good.replacingOccurrences(of: "2020-02-29", with: "2021-02-29").write(to: store.indexURL, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try store.people()) { XCTAssertTrue("\($0)".contains("its birthday '2021-02-29' is not a calendar day"), "\($0)") }
        try good.write(to: store.indexURL, atomically: true, encoding: .utf8)
        XCTAssertNil(try store.setBorn("Emmy", to: nil).born)
        XCTAssertNil(try store.person(named: "Emmy")?.born)
    }

    /// Thumbnails a killed run left behind (its reference no longer listed, or never listed) go
    /// at the next change; other files in the folder, and every thumbnail when the list is
    /// missing, stay.
    func testThumbnailsNoReferenceNamesAreCleared() throws {
        let library = temporaryFolder(self)
        let store = ReferenceStore(library: library)
        try store.add(try reference("/p/a.jpg"), to: "Emma", thumbnailPNG: [1], check: { _, _ in })
        let folder = library.appendingPathComponent("references")
        for name in ["reference-7.png", "reference-8.png", "notes.txt", "reference-x.png"] {
            try Data([1]).write(to: folder.appendingPathComponent(name))
        }
        let list = try Data(contentsOf: store.indexURL)
        try FileManager.default.moveItem(at: store.indexURL, to: library.appendingPathComponent("moved-away.json"))
        try store.tidy()
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)).count, 5, "no list: nothing is swept")
        try list.write(to: store.indexURL)
        try store.tidy()
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), ["reference-1.png", "notes.txt", "reference-x.png"])
        XCTAssertEqual(try Data(contentsOf: store.indexURL), list, "tidying writes no list")
    }

    func testATypoOfANameIsToldFromANewName() {
        let names = ["Barack", "Joe", "Emma", "Leo"]
        for (typed, close) in [
            ("Barak", "Barack"), ("barrack", "Barack"), ("Brack", "Barack"), ("Baracks", "Barack"), ("Jo", "Joe"), ("Jeo", "Joe"),
            ("JOEY", "Joe"), ("Emme", "Emma"), ("Lea", "Leo"), ("Mema", "Emma"),
        ] as [(String, String?)] {
            XCTAssertEqual(Person.closeName(to: typed, in: names), close, typed)
        }
        for typed in ["Michelle", "Bo", "Em", "Barbara", "Leonard", "Joe"] {
            XCTAssertNil(Person.closeName(to: typed, in: names), typed)
        }
        XCTAssertNotNil(Person.problem(newName: "Everyone"))
        XCTAssertNil(Person.problem(name: "Everyone"), "a list from before the word was kept still reads")
        XCTAssertNil(Person.problem(newName: "Everyone Else"))
    }
}
