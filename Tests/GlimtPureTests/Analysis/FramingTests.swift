import Foundation
import XCTest
@testable import Imaging
@testable import Analysis

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
