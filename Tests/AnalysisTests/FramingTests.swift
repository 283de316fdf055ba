import Foundation
import XCTest

@testable import Analysis
@testable import Imaging

final class FramingTests: XCTestCase {
    func testTwoPeopleAlternatingDoNotPutTheCropOnTheWall() {
        // Landscape 1920x1080; a person at x=400 in 5 frames, another at x=1500 in 3 frames.
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

    /// A big face in a tall picture framed wide: centred at its usual height, the crop would cut
    /// off the top of the head; it rises to keep the head whole, and the chin stays in. When the
    /// face is too big for both, the chin is kept.
    func testTheCropKeepsTheWholeHeadWhenThePictureAllows() {
        let face = Framing.Subject(center: Point(540, 800), faceHeight: 400)
        let c = Framing.crop(subjects: [face, face], frameWidth: 1080, frameHeight: 1920, aspect: 16.0 / 9)
        XCTAssertEqual(c.box.height, 607.5)
        XCTAssertLessThanOrEqual(c.box.y, 800 - Framing.headAbove * 400, "the top of the head is in")
        XCTAssertGreaterThanOrEqual(c.box.maxY, 800 + Framing.chinBelow * 400, "the chin is in")
        // A small face keeps its usual place: there is room above it.
        let small = Framing.Subject(center: Point(540, 800), faceHeight: 150)
        let s = Framing.crop(subjects: [small], frameWidth: 1080, frameHeight: 1920, aspect: 16.0 / 9)
        XCTAssertEqual(s.box.y, 800 - s.box.height * Framing.faceHeightPosition, accuracy: 0.01)
        // Too big for the whole head: the chin wins.
        let huge = Framing.Subject(center: Point(540, 800), faceHeight: 560)
        let h = Framing.crop(subjects: [huge], frameWidth: 1080, frameHeight: 1920, aspect: 16.0 / 9)
        XCTAssertEqual(h.box.maxY, 800 + Framing.chinBelow * 560, accuracy: 0.01)
        // At the picture's top there is nowhere to rise to.
        let high = Framing.Subject(center: Point(540, 250), faceHeight: 400)
        XCTAssertEqual(Framing.crop(subjects: [high], frameWidth: 1080, frameHeight: 1920, aspect: 16.0 / 9).box.y, 0)
    }

    func testNoFaceGivesACentredFullHeightCrop() {
        let c = Framing.crop(subjects: [], frameWidth: 1920, frameHeight: 1080, aspect: 9.0 / 16)
        XCTAssertEqual(c.box, Box(x: (1920 - 607.5) / 2, y: 0, width: 607.5, height: 1080))
        let sq = Framing.crop(subjects: [], frameWidth: 1080, frameHeight: 1920, aspect: 1)
        XCTAssertEqual(sq.box.width, 1080)
        XCTAssertEqual(sq.box.height, 1080)
    }

    /// A second pinned in a video the identity rules say the person is not in (one lucky frame,
    /// here), while the only face walks from the left to the middle: the crop goes where the face
    /// is, not to the middle of the picture, as an automatic pick's follows its subject.
    func testAPinnedSecondWithoutThePersonFollowsTheFaceThere() throws {
        let aesthetics = Aesthetics(value: 0.5, exposure: 0.5, contrast: 0.5, colourfulness: 0.5, cleanliness: 0.5, rejected: nil)
        let thresholds = Identity.Thresholds.standard
        let frames = (0..<24).map { i -> FrameAnalysis in
            // A stranger's face (cosine 0.2), one frame at the match threshold: not enough.
            let face = FaceInFrame(
                box: Box(x: 100 + 10 * Float(i), y: 300, width: 120, height: 140), score: 0.9, quality: 0.8,
                cosine: i == 20 ? 0.46 : 0.2)
            return FrameAnalysis.evaluate(
                time: Double(i) / 8, faces: [face], aesthetics: aesthetics, sharpness: 0.5,
                hasReferences: true, thresholds: thresholds)
        }
        let video = VideoAnalysis.conclude(
            path: "/v/a.mp4", duration: 3, width: 1920, height: 1080, rotation: 0, codec: "h264", hdr: false,
            capture: CaptureDate(day: "2024-05-01", time: nil, instant: nil, source: .fileName), frames: frames,
            hasReferences: true, thresholds: thresholds, windowLength: 1, aspect: 9.0 / 16, times: .init())
        XCTAssertEqual(video.identity?.containsPerson, false, "one frame at the match threshold is a lucky frame")
        let pinned = try XCTUnwrap(video.pinned(at: 0, length: 1, aspect: 9.0 / 16))
        let crop = try XCTUnwrap(pinned.crop)
        // The face's centre is at x 160...230 in the pinned second; the middle of the picture is 960.
        XCTAssertLessThan(crop.box.center.x, 500, "the crop follows the face (\(crop.box))")
        XCTAssertGreaterThan(crop.clusterSize, 0)
        let later = try XCTUnwrap(video.pinned(at: 2, length: 1, aspect: 9.0 / 16)?.crop)
        XCTAssertGreaterThan(later.box.center.x, crop.box.center.x, "a later second finds the face further right")
    }
}
