import Foundation
import XCTest
@testable import Imaging
@testable import Faces
@testable import Analysis

/// The decision rules of "the second of the day", each with a case that fails if the rule is removed.
final class IdentityRuleTests: XCTestCase {
    func testOneLuckyFrameIsNotEnough() {
        // One frame at the match threshold (a look-alike in one frame) must not count...
        XCTAssertFalse(Identity.containsChild(frameCosines: [0.1, 0.46, 0.2, 0.3]))
        // ...two frames at it do, and one clearly above does on its own.
        XCTAssertTrue(Identity.containsChild(frameCosines: [0.1, 0.46, 0.2, 0.48]))
        XCTAssertTrue(Identity.containsChild(frameCosines: [0.1, 0.58, 0.2]))
        XCTAssertFalse(Identity.containsChild(frameCosines: []))
    }

    func testThresholdsAreOverridable() {
        let strict = Identity.Thresholds(match: 0.5, strong: 0.7, framesNeeded: 3)
        XCTAssertFalse(Identity.containsChild(frameCosines: [0.55, 0.6, 0.3], thresholds: strict))
        XCTAssertFalse(Identity.containsChild(frameCosines: [0.58], thresholds: strict), "0.58 is strong only under the standard thresholds")
        XCTAssertTrue(Identity.containsChild(frameCosines: [0.58]))
        XCTAssertTrue(Identity.containsChild(frameCosines: [0.55, 0.55, 0.55], thresholds: strict))
    }

    func testOnlyTheBestMatchingFaceOfAFrameCounts() throws {
        let child = try unit([1, 0, 0, 0]), stranger = try unit([0, 1, 0, 0])
        let lookalike = try unit([0.5, 0.866, 0, 0])
        // The best reference counts: the face only has to resemble one of them.
        XCTAssertEqual(child.bestCosine([stranger, child])!, 1, accuracy: 1e-6)
        // Best face: the child (index 1), not the first or the most similar-looking stranger.
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
        let frame = FrameAnalysis.evaluate(time: 0, faces: [stranger, child], aesthetics: looks, sharpness: 0.5,
                                           hasReferences: true, thresholds: .standard)
        XCTAssertEqual(frame.subject, 1)
        XCTAssertEqual(frame.bestCosine, 0.6)
        XCTAssertEqual(frame.score.face, 0.4, "the person's face quality, not the stranger's 0.9")
        // Where the person is not found, a stranger's clear face earns nothing.
        let alone = FrameAnalysis.evaluate(time: 0, faces: [stranger], aesthetics: looks, sharpness: 0.5,
                                           hasReferences: true, thresholds: .standard)
        XCTAssertNil(alone.subject)
        XCTAssertEqual(alone.score.face, 0)
        // Without references: the most prominent face is the subject, the clearest face scores.
        let open = FrameAnalysis.evaluate(time: 0, faces: [child, stranger], aesthetics: looks, sharpness: 0.5,
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

final class BestWindowTests: XCTestCase {
    func testOneGoodFrameBesideBlurDoesNotWin() {
        // 8 frames per second over 4 s: second 1 holds one excellent frame among poor ones,
        // second 3 is steadily good.
        let times = (0..<32).map { Double($0) / 8 }
        var scores = [Float](repeating: 0.2, count: 32)
        scores[10] = 1.0
        for i in 24..<32 { scores[i] = 0.6 }
        let w = BestWindow.best(times: times, scores: scores, duration: 4)!
        XCTAssertEqual(w.start, 3, accuracy: 1e-9)
        XCTAssertEqual(w.frames, 24..<32)
        XCTAssertEqual(w.meanScore, 0.6, accuracy: 1e-6)
    }

    func testWindowMustFitInsideTheVideo() {
        let times = [0, 0.25, 0.5, 0.75, 1.0, 1.25]
        let scores: [Float] = [0.1, 0.1, 0.1, 0.1, 0.9, 0.9]
        let w = BestWindow.best(times: times, scores: scores, duration: 1.5)!
        XCTAssertLessThanOrEqual(w.start + w.length, 1.5 + 1e-3)
        XCTAssertNil(BestWindow.best(times: [0, 0.25], scores: [1, 1], duration: 0.5))
    }
}

final class FramingTests: XCTestCase {
    func testTwoChildrenAlternatingDoNotPutTheCropOnTheWall() {
        // Landscape 1920x1080; a child at x=400 in 5 frames, another at x=1500 in 3 frames.
        let left = Framing.Subject(center: Point(400, 500), faceHeight: 200)
        let right = Framing.Subject(center: Point(1500, 520), faceHeight: 200)
        let crop = Framing.crop(subjects: [left, right, left, right, left, right, left, left], frameWidth: 1920, frameHeight: 1080, aspect: 9.0 / 16)
        XCTAssertEqual(crop.box.center.x, 400, accuracy: 1, "crop must centre on the larger group, not the mean (\(crop.box.center.x))")
        XCTAssertEqual(crop.clusterSize, 5)
        XCTAssertTrue(crop.box.x >= 0 && crop.box.maxX <= 1920)
    }

    func testSmallFaceZoomsToAFifthOfTheHeightAtMost1_6x() {
        let small = Framing.Subject(center: Point(960, 540), faceHeight: 60)
        let c = Framing.crop(subjects: [small, small], frameWidth: 1920, frameHeight: 1080, aspect: 9.0 / 16)
        XCTAssertEqual(c.zoom, 1.6, accuracy: 1e-5)
        XCTAssertEqual(c.box.height, 1080 / 1.6, accuracy: 0.01)
        let medium = Framing.Subject(center: Point(960, 540), faceHeight: 180)
        let m = Framing.crop(subjects: [medium], frameWidth: 1920, frameHeight: 1080, aspect: 9.0 / 16)
        XCTAssertEqual(180 / m.box.height, 0.2, accuracy: 1e-4, "face should be a fifth of the crop")
        let big = Framing.Subject(center: Point(960, 540), faceHeight: 400)
        XCTAssertEqual(Framing.crop(subjects: [big], frameWidth: 1920, frameHeight: 1080, aspect: 9.0 / 16).zoom, 1)
    }

    func testNoFaceGivesACentredFullHeightCrop() {
        let c = Framing.crop(subjects: [], frameWidth: 1920, frameHeight: 1080, aspect: 9.0 / 16)
        XCTAssertEqual(c.box, Box(x: (1920 - 607.5) / 2, y: 0, width: 607.5, height: 1080))
        let sq = Framing.crop(subjects: [], frameWidth: 1080, frameHeight: 1920, aspect: 1)
        XCTAssertEqual(sq.box.width, 1080)
        XCTAssertEqual(sq.box.height, 1080)
    }
}

final class CaptureDateTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!

    func testQuickTimeDateKeepsTheCamerasLocalDay() {
        // 23:30 in Tokyo is 14:30 UTC the same day; a film made in New York still files it under
        // the Tokyo day.
        let d = CaptureDate.resolve(tags: ["com.apple.quicktime.creationdate": "2024-05-17T23:30:00+0900", "creation_time": "2024-05-17T14:30:00.000000Z"],
                                    path: "/x/IMG_0001.MOV", modified: nil, timeZone: newYork)!
        XCTAssertEqual(d.day, "2024-05-17")
        XCTAssertEqual(d.source, .quicktimeCreationDate)
        XCTAssertEqual(d.instant?.timeIntervalSince1970, 1_715_956_200)
    }

    func testUTCCreationTimeIsConvertedAroundMidnight() {
        let tags = ["creation_time": "2024-05-17T22:30:00.000000Z"]
        XCTAssertEqual(CaptureDate.resolve(tags: tags, path: "/x/a.mp4", modified: nil, timeZone: berlin)!.day, "2024-05-18")
        XCTAssertEqual(CaptureDate.resolve(tags: tags, path: "/x/a.mp4", modified: nil, timeZone: newYork)!.day, "2024-05-17")
        XCTAssertEqual(CaptureDate.resolve(tags: tags, path: "/x/a.mp4", modified: nil, timeZone: berlin)!.source, .creationTime)
    }

    func testFileNamePatterns() {
        XCTAssertEqual(CaptureDate.resolve(tags: [:], path: "/v/VID_20230102_235959.mp4", modified: nil, timeZone: berlin)!.day, "2023-01-02")
        XCTAssertEqual(CaptureDate.resolve(tags: [:], path: "/v/20230102_080000.mp4", modified: nil, timeZone: berlin)!.time, "08:00:00")
        // Pixel names are UTC: 23:30 UTC is already the next day in Berlin.
        XCTAssertEqual(CaptureDate.resolve(tags: [:], path: "/v/PXL_20230102_233000123.mp4", modified: nil, timeZone: berlin)!.day, "2023-01-03")
        XCTAssertEqual(CaptureDate.resolve(tags: [:], path: "/v/VID-20230102-WA0007.mp4", modified: nil, timeZone: berlin)!.day, "2023-01-02")
        XCTAssertEqual(CaptureDate.resolve(tags: [:], path: "/v/VID_20231340_000000.mp4", modified: nil, timeZone: berlin), nil, "an impossible date is no date")
    }

    func testFallsBackToModificationTimeAndIgnoresEpochDates() {
        let m = Date(timeIntervalSince1970: 1_700_000_000)
        let d = CaptureDate.resolve(tags: ["creation_time": "1970-01-01T00:00:00.000000Z"], path: "/v/clip.mp4", modified: m, timeZone: berlin)!
        XCTAssertEqual(d.source, .modificationTime)
        XCTAssertEqual(d.day, "2023-11-14")
    }
}
