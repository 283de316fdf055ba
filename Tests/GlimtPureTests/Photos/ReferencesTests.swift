import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import GlimtPure
@testable import Imaging
@testable import Library

/// What a user relies on when choosing references: never guessing among several faces, at most five references, no face twice and no stranger by
/// mistake, and a contact sheet that shows which faces matched.
final class ReferencesTests: XCTestCase {
    func testSeveralFacesAreRefusedWithoutAFaceNumberAndASheetIsWritten() throws {
        let library = temporaryFolder(self)
        let store = ReferenceStore(library: library)
        let photo = Fixtures.url("yunet/two_people.png").path
        do {
            try References.add(photo: photo, faceNumber: nil, person: nil, library: store.library, detectionSize: 640, force: false)
            XCTFail("a photo with two faces must not be taken without --face")
        } catch let e as AmbiguousFaceError {
            XCTAssertEqual(e.faces.count, 2)
            XCTAssertTrue(FileManager.default.fileExists(atPath: e.sheet), "contact sheet at \(e.sheet)")
            XCTAssertEqual(try StillImage.read(e.sheet).width, 448)
        }
        XCTAssertEqual(try store.list().count, 0, "nothing guessed, nothing stored")
        let r = try References.add(photo: photo, faceNumber: 2, person: nil, library: store.library, detectionSize: 640, force: false)
        XCTAssertEqual(r.reference.face, 2)
        XCTAssertThrowsError(try References.add(photo: photo, faceNumber: 3, person: nil, library: store.library, detectionSize: 640, force: false))
    }

    func testSixthReferenceIsRefusedAndRemoveFreesASlot() throws {
        let store = ReferenceStore(library: temporaryFolder(self))
        // Five different photos of Obama (obama-1080p.png is obama.png again, and would be refused).
        let photos: [(String, Int?)] = [
            ("obama.png", nil), ("obama2.png", nil), ("obama3.png", nil), ("obama4.png", nil), ("obama_and_biden.png", 2),
        ]
        for (p, face) in photos {
            try References.add(
                photo: Fixtures.url("yunet/\(p)").path, faceNumber: face, person: nil, library: store.library, detectionSize: 640, force: false)
        }
        XCTAssertEqual(try store.list().map(\.id), [1, 2, 3, 4, 5])
        XCTAssertThrowsError(
            try References.add(
                photo: Fixtures.url("yunet/biden.png").path, faceNumber: nil, person: nil, library: store.library, detectionSize: 640, force: false)
        ) { error in
            XCTAssertTrue("\(error)".contains("already has 5 references"), "\(error)")
        }
        XCTAssertEqual(try store.list().map(\.number), [1, 2, 3, 4, 5], "numbered for their person")
        XCTAssertEqual(try store.remove(number: 3, person: "child").reference.id, 3)
        XCTAssertThrowsError(try store.remove(number: 3, person: "child"))
        let added = try References.add(
            photo: Fixtures.url("yunet/biden.png").path, faceNumber: nil, person: nil, library: store.library, detectionSize: 640, force: true)
        XCTAssertEqual(added.reference.id, 6, "IDs are never reused")
        XCTAssertEqual(added.reference.number, 3, "the number freed is taken again")
        // A reference is the mirrored-and-averaged embedding of its face: Obama's references match
        // each other and not Biden's.
        let refs = try store.list()
        XCTAssertGreaterThan(refs[0].embedding.cosine(refs[1].embedding), 0.45)
        XCTAssertLessThan(refs[0].embedding.cosine(added.reference.embedding), 0.45)
    }

    func testTheSameFaceTwiceIsRefused() throws {
        let library = temporaryFolder(self)
        let photo = Fixtures.url("yunet/obama.png").path
        XCTAssertEqual(
            try References.add(photo: photo, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: false).reference.id, 1)
        XCTAssertThrowsError(try References.add(photo: photo, faceNumber: 1, person: nil, library: library, detectionSize: 640, force: true)) {
            error in
            XCTAssertEqual("\(error)", "\(photo): face 1 is already reference 1 of child")
        }
        // The same portrait at another size, under another name: the same face all the same.
        let resized = Fixtures.url("yunet/obama-1080p.png").path
        XCTAssertThrowsError(try References.add(photo: resized, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: true)) {
            error in
            let e = error as? GlimtError
            XCTAssertEqual(e?.path, resized)
            XCTAssertTrue(e?.reason.hasPrefix("face 1 is the same face as reference 1 of child (cosine 0.9") ?? false, "\(error)")
            XCTAssertTrue(e?.reason.contains(photo) ?? false, "names the stored photo: \(error)")
        }
        XCTAssertEqual(try ReferenceStore(library: library).list().map(\.id), [1])
        // A different photo of the same person is what a second reference is for.
        XCTAssertEqual(
            try References.add(
                photo: Fixtures.url("yunet/obama2.png").path, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: false
            ).reference.id, 2)
    }

    func testAStrangerIsRefusedWithoutForceAndTakenWithIt() throws {
        let library = temporaryFolder(self)
        try References.add(
            photo: Fixtures.url("yunet/obama.png").path, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: false)
        let biden = Fixtures.url("yunet/biden.png").path
        XCTAssertThrowsError(try References.add(photo: biden, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: false)) {
            error in
            let e = error as? GlimtError
            XCTAssertEqual(e?.path, biden)
            let reason = e?.reason ?? ""
            XCTAssertTrue(reason.contains("resembles none of child's references"), reason)
            XCTAssertTrue(reason.contains("best cosine 0.1") && reason.contains("with reference 1"), "the best cosine and its reference: \(reason)")
            XCTAssertTrue(reason.hasSuffix("add --force if it really is child"), reason)
            XCTAssertFalse(reason.contains("\n"))
        }
        let store = ReferenceStore(library: library)
        XCTAssertEqual(try store.list().count, 1)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: store.folder.path), ["reference-1.png"], "a refused face leaves no thumbnail")
        let forced = try References.add(photo: biden, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: true)
        XCTAssertEqual(forced.reference.id, 2)
        XCTAssertEqual(try store.list().map(\.photo), [Fixtures.url("yunet/obama.png").path, biden])
    }

    func testTheStoresCheckSeesTheStoredReferencesAndCanRefuse() throws {
        let store = ReferenceStore(library: temporaryFolder(self))
        let first = try References.make(
            photo: Fixtures.url("yunet/obama.png").path, faceNumber: nil, models: FaceModels.load(), id: 0,
            sheetFolder: store.library
        ).0
        var seen: [[Int]] = []
        try store.add(first, to: "Emma", thumbnailPNG: [1]) { p, _ in seen.append(p?.references.map(\.id) ?? []) }
        XCTAssertThrowsError(
            try store.add(first, to: "Emma", thumbnailPNG: [2]) { p, _ in
                seen.append(p?.references.map(\.id) ?? []); throw GlimtError("no")
            })
        try store.add(first, to: "Emma", thumbnailPNG: [3]) { p, _ in seen.append(p?.references.map(\.id) ?? []) }
        XCTAssertEqual(seen, [[], [1], [1]])
        XCTAssertEqual(try store.list().map(\.id), [1, 2], "the refused one took no id")
    }

    func testMatchedFacesAreGreenOnTheSheet() throws {
        let library = temporaryFolder(self)
        try References.add(
            photo: Fixtures.url("yunet/obama.png").path, faceNumber: nil, person: nil, library: library, detectionSize: 640, force: false)
        let sheet = library.appendingPathComponent("sheet.png").path
        let found = try PhotoFaces.find(
            in: Fixtures.url("yunet/two_people.png").path, embed: false,
            references: ReferenceStore(library: library).list(), sheet: sheet)
        // Face 1 is Obama, face 2 Biden.
        XCTAssertEqual(found.faces.map { $0.match?.samePerson }, [true, false])
        let drawn = try StillImage.read(sheet)
        XCTAssertEqual([drawn.width, drawn.height], [found.width, found.height], "drawn at the photo's size")
        func leftEdge(_ face: PhotoFaces.Face) -> RGB {
            let box = face.record.face.box
            let i = (Int(box.center.y) * drawn.width + Int(box.x.rounded())) * 3
            return RGB(drawn.pixels[i], drawn.pixels[i + 1], drawn.pixels[i + 2])
        }
        XCTAssertEqual(leftEdge(found.faces[0]), .green)
        XCTAssertEqual(leftEdge(found.faces[1]), .yellow)
        // Without references every face is drawn as before.
        let plain = library.appendingPathComponent("plain.png").path
        let unmatched = try PhotoFaces.find(in: Fixtures.url("yunet/two_people.png").path, embed: false, references: [], sheet: plain)
        let plainDrawn = try StillImage.read(plain)
        let box = unmatched.faces[0].record.face.box
        let i = (Int(box.center.y) * plainDrawn.width + Int(box.x.rounded())) * 3
        XCTAssertEqual(RGB(plainDrawn.pixels[i], plainDrawn.pixels[i + 1], plainDrawn.pixels[i + 2]), .yellow)
    }

}
