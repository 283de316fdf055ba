import Foundation
import XCTest

@testable import Analysis
@testable import GlimtCore
@testable import Imaging

/// The decision rules of "the second of the day", each with a case that fails if the rule is removed.
final class IdentityTests: XCTestCase {
    func testOneLuckyFrameIsNotEnough() {
        // One frame at the match threshold (a look-alike in one frame) must not count...
        XCTAssertFalse(Identity.containsPerson(frameCosines: [0.1, 0.46, 0.2, 0.3]))
        // ...two frames at it do, and one clearly above does on its own.
        XCTAssertTrue(Identity.containsPerson(frameCosines: [0.1, 0.46, 0.2, 0.48]))
        XCTAssertTrue(Identity.containsPerson(frameCosines: [0.1, 0.58, 0.2]))
        XCTAssertFalse(Identity.containsPerson(frameCosines: []))
    }

    /// A borrowed embedding may only stand for a face whose verdict a small change of cosine
    /// could not flip: clearly a stranger or clearly the person, never one near a threshold.
    func testOnlyCosinesFarFromTheThresholdsAreSettled() {
        for c: Float in [-0.2, 0.1, 0.32, 0.69, 0.8] { XCTAssertTrue(Identity.isSettled(c), "\(c)") }
        for c: Float in [0.33, 0.4, 0.45, 0.5, 0.57, 0.6, 0.68] { XCTAssertFalse(Identity.isSettled(c), "\(c)") }
        // Within the margin either way, identity scores sit at their floor (0) or ceiling (1).
        XCTAssertEqual(Identity.score(cosine: 0.45 - Identity.settledMargin - 0.01), 0)
        XCTAssertEqual(Identity.score(cosine: 0.57 + Identity.settledMargin - 0.11), 1)
        let strict = Identity.Thresholds(match: 0.6, strong: 0.7, framesNeeded: 2)
        XCTAssertFalse(Identity.isSettled(0.8, thresholds: strict), "the margin follows the thresholds")
        XCTAssertTrue(Identity.isSettled(0.82, thresholds: strict))
    }

    func testThresholdsAreOverridable() {
        let strict = Identity.Thresholds(match: 0.5, strong: 0.7, framesNeeded: 3)
        XCTAssertFalse(Identity.containsPerson(frameCosines: [0.55, 0.6, 0.3], thresholds: strict))
        XCTAssertFalse(Identity.containsPerson(frameCosines: [0.58], thresholds: strict), "0.58 is strong only under the standard thresholds")
        XCTAssertTrue(Identity.containsPerson(frameCosines: [0.58]))
        XCTAssertTrue(Identity.containsPerson(frameCosines: [0.55, 0.55, 0.55], thresholds: strict))
    }

    func testOnlyTheBestMatchingFaceOfAFrameCounts() throws {
        let child = try unit([1, 0, 0, 0]), stranger = try unit([0, 1, 0, 0])
        let lookalike = try unit([0.5, 0.866, 0, 0])
        // The best reference counts: the face only has to resemble one of them.
        XCTAssertEqual(child.bestCosine([stranger, child])!, 1, accuracy: 1e-6)
        // Best face: the person (index 1), not the first or the most similar-looking stranger.
        let best = Identity.bestFace([stranger, child, lookalike].map { $0.bestCosine([child]) })!
        XCTAssertEqual(best.index, 1)
        XCTAssertEqual(best.cosine, 1, accuracy: 1e-6)
        XCTAssertNil(Identity.bestFace([nil, nil]), "faces never compared name no best face")
    }

    /// The production path (`FrameAnalysis.evaluate`): with references the subject is the
    /// best-matching face, and the clear-face part is that face's quality, not the clearer face
    /// of a stranger beside them.
    func testFrameScoresThePersonsFaceNotAClearerStranger() {
        let box = Box(x: 0, y: 0, width: 50, height: 50)
        let stranger = FaceInFrame(box: box, score: 0.9, quality: 0.9, cosine: 0.2)
        let child = FaceInFrame(box: box, score: 0.9, quality: 0.4, cosine: 0.6)
        let looks = Aesthetics(value: 0.5, exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil)
        let frame = FrameAnalysis.evaluate(
            time: 0, faces: [stranger, child], aesthetics: looks, sharpness: 0.5,
            hasReferences: true, thresholds: .standard)
        XCTAssertEqual(frame.subject, 1)
        XCTAssertEqual(frame.bestCosine, 0.6)
        XCTAssertEqual(frame.score.face, 0.4, "the person's face quality, not the stranger's 0.9")
        // Where the person is not found, a stranger's clear face earns nothing.
        let alone = FrameAnalysis.evaluate(
            time: 0, faces: [stranger], aesthetics: looks, sharpness: 0.5,
            hasReferences: true, thresholds: .standard)
        XCTAssertNil(alone.subject)
        XCTAssertEqual(alone.score.face, 0)
        // Without references: the most prominent face is the subject, the clearest face scores.
        let open = FrameAnalysis.evaluate(
            time: 0, faces: [child, stranger], aesthetics: looks, sharpness: 0.5,
            hasReferences: false, thresholds: .standard)
        XCTAssertEqual(open.subject, 1)
        XCTAssertEqual(open.score.face, 0.9)
    }

    func testIdentityScoreGivesStrangersNothing() {
        XCTAssertEqual(Identity.score(cosine: 0.44), 0)
        XCTAssertEqual(Identity.score(cosine: 0.45), 0.5, accuracy: 1e-6)
        XCTAssertEqual(Identity.score(cosine: 0.57), 1, accuracy: 1e-6)
        XCTAssertEqual(Identity.score(cosine: 0.9), 1)
    }

    func testChildInAnOrdinaryFrameBeatsALovelyFrameOfSomeoneElse() {
        let child = FrameScore(aesthetics: 0.4, sharpness: 0.4, face: 0.4, identity: Identity.score(cosine: 0.6))
        let stranger = FrameScore(aesthetics: 1, sharpness: 1, face: 1, identity: Identity.score(cosine: 0.3))
        XCTAssertGreaterThan(child.total, stranger.total)
        let plain = FrameScore(aesthetics: 1, sharpness: 0, face: 0, identity: nil)
        XCTAssertEqual(plain.total, 0.35, accuracy: 1e-6)
    }

    /// An embedding pointing along `v` (padded with zeros to SFace's 128 numbers).
    private func unit(_ v: [Float]) throws -> Embedding { try Embedding(validating: v + [Float](repeating: 0, count: Embedding.count - v.count)) }
}
