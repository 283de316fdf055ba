import Foundation
import TestSupport
import XCTest

@testable import GlimtPure
@testable import Library

/// Whose age a film's captions say: the birthday given for the film over the one stored for the
/// library's person the film is for; none known is said before any work.
final class FilmBirthdayTests: XCTestCase {
    private func person(_ store: ReferenceStore, _ name: String) throws {
        let reference = Reference(
            id: 0, photo: "/p/\(name).jpg", face: 1, box: Box(x: 1, y: 2, width: 30, height: 40), landmarks: (0..<5).map { Point(Float($0), 2) },
            quality: 0.8, embedding: try Embedding(validating: (0..<Embedding.count).map { Float($0 % 7) - 3 }), thumbnail: "",
            added: "2024-05-01T10:00:00Z")
        try store.add(reference, to: name, newPerson: true, thumbnailPNG: [1], check: { _, _ in })
    }

    func testTheBirthdayComesFromTheFilmOrThePerson() throws {
        let library = temporaryFolder(self)
        let store = ReferenceStore(library: library)
        try person(store, "Emma")
        try person(store, "Leo")
        _ = try store.setBorn("Emma", to: "2022-03-14")
        var film = FilmOptions()
        film.caption = .dateAndAge
        let out = library.appendingPathComponent("film.mp4").path
        let job = try FilmJob(film: film, output: out, fromDay: nil, toDay: nil)
        XCTAssertEqual(try job.birthday(for: .stored(library: library, person: "emma")), "2022-03-14")
        XCTAssertNil(try job.birthday(for: .stored(library: library, person: "Leo")), "Leo has none")
        XCTAssertNil(try job.birthday(for: .everyone(library: library)), "the family has no one age")
        XCTAssertNil(try job.birthday(for: nil), "saved picks name no person")
        XCTAssertThrowsError(try job.birthday(for: .stored(library: library, person: nil)), "two people: which one is said")
        XCTAssertNotNil(job.captionProblem(birthday: nil))
        XCTAssertTrue(job.captionProblem(birthday: nil)!.contains("glimt-pure people set NAME --born YYYY-MM-DD"))
        XCTAssertNil(job.captionProblem(birthday: "2022-03-14"))

        _ = try LibraryStore(library: library)
        let emma = try store.people().firstIndex { $0.name == "Emma" }
        let days = try LibraryDays(library: library, rules: Judgement.Rules(), lookFor: LookFor(people: try store.people(), person: emma))
        XCTAssertEqual(try job.birthday(for: .library(days)), "2022-03-14", "a library film: its person's")

        film.born = "2023-01-01"
        let given = try FilmJob(film: film, output: out, fromDay: nil, toDay: nil)
        XCTAssertEqual(try given.birthday(for: .library(days)), "2023-01-01", "--born over the stored one")
        XCTAssertEqual(try given.birthday(for: nil), "2023-01-01")

        film.caption = .date
        film.born = nil
        XCTAssertNil(try FilmJob(film: film, output: out, fromDay: nil, toDay: nil).captionProblem(birthday: nil), "no age, no birthday needed")
    }
}
