import XCTest

@testable import Analysis
@testable import Imaging

/// One face, one person: the rules of matching a frame's faces to a library's people.
final class FaceAssignmentTests: XCTestCase {
    private let match = Identity.Thresholds.standard.match

    func testAFaceClaimedByTwoPeopleGoesToTheBetterMatch() {
        // One face; it is Emma's best face (0.62) and Leo's best face (0.48).
        XCTAssertEqual(FaceAssignment.assign([[0.62, 0.48]], match: match), [0])
        XCTAssertEqual(FaceAssignment.assign([[0.48, 0.62]], match: match), [1])
    }

    func testATieWithinTheMarginGoesToNeither() {
        let close: Float = 0.61, other = close - FaceAssignment.margin / 2
        XCTAssertEqual(FaceAssignment.assign([[close, other]], match: match), [nil])
        XCTAssertTrue(FaceAssignment.isAmbiguous([close, other], match: match))
        // Just outside the margin it counts for the better match.
        XCTAssertEqual(FaceAssignment.assign([[close, close - FaceAssignment.margin - 0.01]], match: match), [0])
        // The two best wherever they stand in the row, and an exact tie is its own second best.
        XCTAssertTrue(FaceAssignment.isAmbiguous([0.2, other, 0.1, close], match: match))
        XCTAssertTrue(FaceAssignment.isAmbiguous([0.2, close, close], match: match))
        XCTAssertFalse(FaceAssignment.isAmbiguous([close - FaceAssignment.margin - 0.01, 0.2, close], match: match))
        // Two strangers' low scores are no tie that matters: nobody is above the threshold anyway.
        XCTAssertFalse(FaceAssignment.isAmbiguous([0.30, 0.29], match: match))
        XCTAssertEqual(FaceAssignment.assign([[0.30, 0.29]], match: match), [nil])
    }

    func testAPersonWhoseBestFaceIsTakenUsesTheirNextBestFace() {
        // Face 0 is Emma's (0.80) and Leo's best face too (0.60); Leo's next best is face 1 (0.55),
        // which nobody else wants.
        let faces: [[Float]?] = [[0.80, 0.60], [0.20, 0.55], [0.10, 0.12]]
        XCTAssertEqual(FaceAssignment.assign(faces, match: match), [0, 1, nil])
        // A face that was not embedded counts for no one and claims nothing.
        XCTAssertEqual(FaceAssignment.assign([nil, [0.20, 0.55]], match: match), [nil, 1])
        // Each person gets at most one face: the second face that looks like Emma stays free.
        XCTAssertEqual(FaceAssignment.assign([[0.70, 0.1], [0.65, 0.1]], match: match), [0, nil])
    }

    /// What a person's frame is made of: the face that counts for them, never a sibling's.
    func testASiblingNeverCountsForTheChild() throws {
        let emma = try Embedding(validating: (0..<128).map { $0 == 0 ? 1 : 0 })
        let leo = try Embedding(validating: (0..<128).map { $0 == 1 ? 1 : 0 })
        // Leo's face: 0.46 against Emma (a lucky resemblance), 0.85 against himself.
        let leoFace = try Embedding(validating: (0..<128).map { $0 == 0 ? 0.46 : $0 == 1 ? 0.85 : $0 == 2 ? 0.26 : 0 })
        let frame = ObservedFrame(
            time: 0, aesthetics: Aesthetics(value: 0.5, exposure: 0.5, contrast: 0.5, colourfulness: 0.5, cleanliness: 0.5, rejected: nil),
            sharpness: 0.5, faces: [ObservedFace(box: Box(x: 0, y: 0, width: 50, height: 50), score: 0.9, quality: 0.9, embedding: leoFace)])
        let alone = Judgement(references: [emma], rules: Judgement.Rules())
        XCTAssertEqual(alone.frame(frame).subject, 0, "alone, Emma's references take the face at 0.46")
        let family = Judgement(people: [[emma], [leo]], person: 0, rules: Judgement.Rules())
        XCTAssertNil(family.frame(frame).subject, "with Leo known, it is Leo's face")
        XCTAssertNil(family.cosines(frame)[0])
        XCTAssertEqual(Judgement(people: [[emma], [leo]], person: 1, rules: Judgement.Rules()).frame(frame).subject, 0)
    }

    /// Every face is compared with every reference at once (`ReferenceTable`); each cosine is
    /// the one `Embedding.bestCosine` gives, bit for bit, for any number of references (groups
    /// of four and what is left), a person without references, and a face without embedding.
    func testFacesAreComparedWithEveryReferenceExactlyAsOneByOne() throws {
        var random = SystemRandomNumberGenerator()
        func embedding() throws -> Embedding { try Embedding(validating: (0..<128).map { _ in Float.random(in: -1...1, using: &random) }) }
        for counts in [[1], [3, 2, 2], [4, 0, 5], [9, 1], [2, 2, 2, 2, 2]] {
            let people = try counts.map { n in try (0..<n).map { _ in try embedding() } }
            let faces = try (0..<6).map { _ in try embedding() }
            var row = [Float](repeating: 0, count: people.count)
            for face in faces {
                row.withUnsafeMutableBufferPointer { ReferenceTable(people).bestCosines(face, into: $0) }
                XCTAssertEqual(row.map(\.bitPattern), people.map { (face.bestCosine($0) ?? -1).bitPattern }, "references \(counts)")
            }
            // Judged as a frame: the same cosines, the same owners.
            let frame = ObservedFrame(
                time: 0, aesthetics: Aesthetics(value: 0.5, exposure: 0.5, contrast: 0.5, colourfulness: 0.5, cleanliness: 0.5, rejected: nil),
                sharpness: 0.5,
                faces: (faces.map(Optional.some) + [nil]).map {
                    ObservedFace(box: Box(x: 0, y: 0, width: 50, height: 50), score: 0.9, quality: 0.9, embedding: $0)
                })
            let rows = frame.faces.map { f in f.embedding.map { e in people.map { e.bestCosine($0) ?? -1 } } }
            for person in people.indices where !people[person].isEmpty {
                let owners = FaceAssignment.assign(rows, match: match)
                let expected = rows.enumerated().map { i, row -> Float? in
                    guard let row else { return nil }
                    guard people.count > 1 else { return row[person] }
                    return owners[i] == person || (owners[i] == nil && !FaceAssignment.isAmbiguous(row, match: match)) ? row[person] : nil
                }
                XCTAssertEqual(Judgement(people: people, person: person, rules: Judgement.Rules()).cosines(frame), expected, "references \(counts)")
            }
        }
    }

    /// With one person the rule is the one-person rule: every face keeps its own cosine.
    func testOnePersonJudgesAsBefore() throws {
        let ref = try Embedding(validating: (0..<128).map { Float($0 % 7) })
        let faces = try (0..<4).map { k in try Embedding(validating: (0..<128).map { Float(($0 + k) % 7) }) }
        let frame = ObservedFrame(
            time: 0, aesthetics: Aesthetics(value: 0.5, exposure: 0.5, contrast: 0.5, colourfulness: 0.5, cleanliness: 0.5, rejected: nil),
            sharpness: 0.5, faces: faces.map { ObservedFace(box: Box(x: 0, y: 0, width: 50, height: 50), score: 0.9, quality: 0.9, embedding: $0) })
        XCTAssertEqual(Judgement(references: [ref], rules: Judgement.Rules()).cosines(frame), faces.map { $0.cosine(ref) })
    }
}
