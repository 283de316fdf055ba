import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import GlimtPure
@testable import Library

/// Several people in one library: one scan, each person's days from the store, siblings (here
/// two men who appear together) never taken for each other.
final class PeopleTests: XCTestCase {
    private var root: URL!
    private var videos: URL { root.appendingPathComponent("videos") }
    private var library: URL { root.appendingPathComponent("library") }

    override func setUpWithError() throws {
        root = temporaryFolder(self)
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        // Obama alone (05-03), Obama and Biden together (05-04), Biden alone (05-07), and the
        // two of them side by side in the fixtures' clip (dated by its file name).
        for clip in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4"] {
            try FileManager.default.copyItem(
                at: Fixtures.repository.appendingPathComponent("Sample/videos/\(clip)"), to: videos.appendingPathComponent(clip))
        }
        try FileManager.default.copyItem(at: Fixtures.url("analysis/two_people.mp4"), to: videos.appendingPathComponent("VID_20240508_120000.mp4"))
    }

    private func days(_ name: String) throws -> [String: DayReport] {
        var out: [String: DayReport] = [:]
        let lookFor = try References.resolve(.stored(library: library, person: name))
        try LibraryDays(library: library, rules: Judgement.Rules(), lookFor: lookFor).forEachDay { out[$0.day] = $0 }
        return out
    }

    /// Whom a pick shows, by the photo pipeline (decode, detect, align, embed: the one the
    /// golden tests hold to OpenCV), not by what the scan stored: the face inside the pick's crop
    /// that looks most like `person`, its cosine with them and with `other`.
    private func shown(_ pick: DayPick, person: Person, other: Person) throws -> (own: Float, other: Float) {
        let frame = try StillFrame.at(pick.start + pick.length / 2, in: pick.video)
        let faces = try FaceModels.load().faces(in: frame, embed: true).filter {
            let c = $0.face.box.center; return c.x >= pick.crop.x && c.x <= pick.crop.maxX && c.y >= pick.crop.y && c.y <= pick.crop.maxY
        }
        let scored = faces.compactMap { f in f.embedding.map { e in (own: e.bestCosine(person.embeddings)!, other: e.bestCosine(other.embeddings)!) }
        }
        return try XCTUnwrap(scored.max { $0.own < $1.own }, "a face in the crop of \(pick.day)")
    }

    func testOneScanServesTwoPeopleAndAddingOneDecodesNothing() throws {
        try References.add(
            photo: Fixtures.path("yunet/obama.png"), faceNumber: nil, person: "Barack", library: library, detectionSize: 640, force: false)
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "UTC")!
        XCTAssertEqual(try LibraryScan(library: library, options: options).run([videos.path]).analysed, 4)

        // Adding Joe decodes his photo, and nothing more: his days come from the store.
        try References.add(
            photo: Fixtures.path("yunet/biden.png"), faceNumber: nil, person: "Joe", library: library, detectionSize: 640, force: false)
        let decoded = DecodedPictures.total
        let barack = try days("Barack"), joe = try days("Joe")
        XCTAssertEqual(DecodedPictures.total, decoded, "a second person is judged from the store: no frame decoded")

        let people = try ReferenceStore(library: library).people()
        XCTAssertEqual(people.map(\.name), ["Barack", "Joe"])
        XCTAssertEqual(barack.values.compactMap(\.pick).map(\.day).sorted(), ["2024-05-03", "2024-05-04", "2024-05-08"])
        XCTAssertEqual(joe.values.compactMap(\.pick).map(\.day).sorted(), ["2024-05-04", "2024-05-07", "2024-05-08"])
        XCTAssertEqual(barack["2024-05-07"]?.status, .noPerson)
        XCTAssertEqual(joe["2024-05-03"]?.status, .noPerson)
        XCTAssertEqual(barack["2024-05-04"]?.person, "Barack")
        for (name, report, other) in [("Barack", barack, people[1]), ("Joe", joe, people[0])] {
            let person = people.first { $0.name == name }!
            for pick in report.values.compactMap(\.pick) {
                let s = try shown(pick, person: person, other: other)
                XCTAssertGreaterThanOrEqual(s.own, Identity.Thresholds.standard.match, "\(name)'s pick of \(pick.day) shows \(name) (\(s))")
                XCTAssertGreaterThan(s.own, s.other + FaceAssignment.margin, "\(name)'s pick of \(pick.day) is not the other one (\(s))")
            }
        }
        // Where both are in the picture, each person's crop is on their own face.
        let together = [barack["2024-05-08"]!.pick!.crop, joe["2024-05-08"]!.pick!.crop]
        XCTAssertGreaterThan(abs(together[0].center.x - together[1].center.x), 100, "two crops, one on each: \(together)")
    }

    /// A library from before people existed: its references become one person, `child`, its
    /// pins and excluded days theirs, the same picks, nothing analysed again.
    func testAnOlderLibraryBecomesOnePersonWithItsPinsAndPicks() throws {
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "UTC")!
        options.followFaces = false  // as libraries were scanned then: every face embedded
        _ = try LibraryScan(library: library, options: options).run([videos.path])
        try References.add(photo: Fixtures.path("yunet/obama.png"), faceNumber: nil, person: nil, library: library, detectionSize: 640, force: false)
        let store = ReferenceStore(library: library)
        let person = try XCTUnwrap(store.people().first)
        XCTAssertEqual(person.name, ReferenceStore.firstPersonName)
        let choices = try LibraryChoices(library: library, person: person.id)
        try choices.pin(day: "2024-05-04", file: videos.appendingPathComponent("waving_with_biden.mp4").path, start: 1)
        try choices.set("2024-05-08", excluded: true)
        let before = try days(person.name)

        // Back to how glimt kept it before: one list of references, and choices of no one in particular.
        let v1 =
            [
                "version": 1, "nextID": 2,
                "references": try JSONSerialization.jsonObject(with: JSONEncoder().encode(person.references)),
            ] as [String: Any]
        try JSONSerialization.data(withJSONObject: v1).write(to: store.indexURL)
        do {
            let db = try Database(path: library.appendingPathComponent("library.sqlite").path)
            try db.execute(
                """
                CREATE TABLE pins5 (day TEXT PRIMARY KEY, content_key TEXT NOT NULL, start REAL NOT NULL);
                INSERT INTO pins5 SELECT day, content_key, start FROM pins; DROP TABLE pins; ALTER TABLE pins5 RENAME TO pins;
                CREATE TABLE excluded_days5 (day TEXT PRIMARY KEY);
                INSERT INTO excluded_days5 SELECT day FROM excluded_days; DROP TABLE excluded_days; ALTER TABLE excluded_days5 RENAME TO excluded_days;
                ALTER TABLE videos DROP COLUMN notes;
                ALTER TABLE videos DROP COLUMN every_face;
                ALTER TABLE videos DROP COLUMN stretches;
                ALTER TABLE videos DROP COLUMN speech; ALTER TABLE frames DROP COLUMN shot_change; ALTER TABLE faces DROP COLUMN eyes;
                ALTER TABLE faces DROP COLUMN borrows_back; ALTER TABLE faces DROP COLUMN borrows_face; ALTER TABLE faces DROP COLUMN likeness;
                DROP TABLE scan_files; DROP TABLE scans;
                PRAGMA user_version = 5;
                """)
        }
        let decoded = DecodedPictures.total
        let after = try days(ReferenceStore.firstPersonName)
        XCTAssertEqual(DecodedPictures.total, decoded, "nothing analysed again")
        XCTAssertEqual(try store.people().map(\.name), [ReferenceStore.firstPersonName])
        XCTAssertEqual(try store.people().first?.references, person.references)
        XCTAssertEqual(after["2024-05-04"]?.status, .pinned, "the pin is the person's")
        XCTAssertEqual(after["2024-05-04"]?.pick?.start, 1)
        XCTAssertEqual(after["2024-05-08"]?.status, .excluded, "and the excluded day")
        XCTAssertEqual(after.keys.sorted(), before.keys.sorted())
        // A store from before version 11 has no eyes, speech or cuts: its seconds' flaws are not known.
        func known(_ p: DayPick?) -> DayPick? {
            var p = p
            p?.flaws = nil
            p?.passedOver = nil
            return p
        }
        for (day, report) in before {
            XCTAssertEqual(after[day]?.status, report.status, day)
            XCTAssertEqual(known(after[day]?.pick), known(report.pick), day)
        }
        // Renamed, they keep it all.
        _ = try store.rename(ReferenceStore.firstPersonName, to: "Emma")
        XCTAssertEqual(try days("Emma")["2024-05-04"]?.status, .pinned)
        XCTAssertThrowsError(try days(ReferenceStore.firstPersonName))
    }
}

/// Suggested references: every face suggested is the named person, by the photo pipeline.
final class ReferenceSuggestionTests: XCTestCase {
    func testEverySuggestedFaceIsThePersonAndOneCanBeAdded() throws {
        let root = temporaryFolder(self)
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for clip in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4", "press_room_portrait.mp4"] {
            try FileManager.default.copyItem(
                at: Fixtures.repository.appendingPathComponent("Sample/videos/\(clip)"), to: videos.appendingPathComponent(clip))
        }
        try References.add(
            photo: Fixtures.path("yunet/obama.png"), faceNumber: nil, person: "Barack", library: library, detectionSize: 640, force: false)
        try References.add(
            photo: Fixtures.path("yunet/biden.png"), faceNumber: nil, person: "Joe", library: library, detectionSize: 640, force: false)
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "UTC")!
        _ = try LibraryScan(library: library, options: options).run([videos.path])
        // Each clip a month of its own (given by hand), so the suggestions can spread over months.
        for (i, clip) in ["podium.mp4", "waving_with_biden.mp4", "biden_after_midnight.mp4", "press_room_portrait.mp4"].enumerated() {
            _ = try LibraryChoices(library: library).setDate(
                file: videos.appendingPathComponent(clip).path, day: String(format: "2024-%02d-15", 2 * i + 1), time: nil)
        }
        let people = try ReferenceStore(library: library).people()
        for (name, other) in [("Barack", "Joe"), ("Joe", "Barack")] {
            let suggestions = try ReferenceSuggestions.suggest(person: name, library: library)
            XCTAssertFalse(suggestions.isEmpty, name)
            XCTAssertEqual(Set(suggestions.map { $0.day.prefix(7) }).count, suggestions.count, "one a month")
            let own = people.first { $0.name == name }!.embeddings, others = people.first { $0.name == other }!.embeddings
            for s in suggestions {
                let frame = try StillFrame.at(s.time, in: s.video)
                let face = try XCTUnwrap(
                    try FaceModels.load().faces(in: frame, embed: true)
                        .max { $0.face.box.intersectionOverUnion(s.box) < $1.face.box.intersectionOverUnion(s.box) })
                let e = try XCTUnwrap(face.embedding)
                XCTAssertGreaterThanOrEqual(e.bestCosine(own)!, Identity.Thresholds.standard.strong, "\(name)'s suggestion \(s.number) (\(s.video))")
                XCTAssertLessThan(e.bestCosine(others)!, Identity.Thresholds.standard.match, "not \(other)")
            }
        }
        let barack = try ReferenceSuggestions.suggest(person: "Barack", library: library)
        let added = try ReferenceSuggestions.add(number: barack[0].number, person: nil, library: library, force: false)
        XCTAssertEqual(added.person.name, "Barack")
        XCTAssertEqual(added.reference.photo, barack[0].video)
        XCTAssertEqual(added.reference.taken, barack[0].day)
        XCTAssertEqual(try ReferenceStore(library: library).person(named: "Barack")?.references.count, 2)
        // The months farthest from the references come first: the new reference's month is now near.
        let again = try ReferenceSuggestions.suggest(person: "Barack", library: library)
        XCTAssertNotEqual(again.first?.day.prefix(7), barack[0].day.prefix(7))
    }
}
