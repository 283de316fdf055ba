import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import Faces
@testable import Imaging

/// Which faces are embedded and which borrow an embedding: the same face staying put is
/// embedded every sixth sample; anything that could be another face is embedded itself.
final class FaceTrackerTests: XCTestCase {
    private let box = Box(x: 100, y: 80, width: 60, height: 72)
    private let interval = 0.125

    private func crop(_ name: String) throws -> RGBImage { try Fixtures.image("sface/\(name)") }

    private func tracker() -> FaceTracker { FaceTracker(rules: FaceTracker.Rules(maxGap: 1.5 * interval)) }

    /// The same picture a moment later: a little brighter, as a face under moving light.
    private func brighter(_ image: RGBImage, by d: Int) -> RGBImage {
        RGBImage(width: image.width, height: image.height, pixels: image.pixels.map { UInt8(min(255, Int($0) + d)) })
    }

    /// A plan without the likeness, which the tests of whom a face borrows from leave aside.
    private enum Source: Equatable {
        case measure
        case borrow(sample: Int, face: Int)
    }
    private func sources(_ plans: [FaceTracker.Plan]) -> [Source] {
        plans.map { if case let .borrow(s, f, _) = $0 { .borrow(sample: s, face: f) } else { .measure } }
    }

    func testAFaceThatStaysPutIsEmbeddedEverySixthSample() throws {
        let face = try crop("obama.png")
        var t = tracker()
        let plans = (0..<13).map { n in
            t.plan(sample: n, time: Double(n) * interval, boxes: [box], crops: [brighter(face, by: n)])[0]
        }
        let borrow0 = [Source](repeating: .borrow(sample: 0, face: 0), count: 5), borrow6 = [Source](repeating: .borrow(sample: 6, face: 0), count: 5)
        XCTAssertEqual(sources(plans), [.measure] + borrow0 + [.measure] + borrow6 + [.measure])
        for case let .borrow(_, _, likeness) in plans { XCTAssertGreaterThan(likeness, 0.99, "a brighter copy looks the same") }
    }

    func testAnotherFaceInTheSamePlaceIsEmbedded() throws {
        var t = tracker()
        XCTAssertEqual(t.plan(sample: 0, time: 0, boxes: [box], crops: [try crop("obama.png")]), [.measure])
        // A cut to someone else framed the same way: the boxes overlap, the faces do not match.
        XCTAssertEqual(t.plan(sample: 1, time: interval, boxes: [box], crops: [try crop("biden.png")]), [.measure])
        XCTAssertEqual(sources(t.plan(sample: 2, time: 2 * interval, boxes: [box], crops: [try crop("biden.png")])), [.borrow(sample: 1, face: 0)])
    }

    func testMovedFacesAndFacesAfterAGapAreEmbedded() throws {
        let face = try crop("obama.png")
        var t = tracker()
        XCTAssertEqual(t.plan(sample: 0, time: 0, boxes: [box], crops: [face]), [.measure])
        var moved = box
        moved.x += box.width * 0.6
        XCTAssertEqual(t.plan(sample: 1, time: interval, boxes: [moved], crops: [face]), [.measure], "overlap under one half")
        XCTAssertEqual(t.plan(sample: 2, time: 3 * interval, boxes: [moved], crops: [face]), [.measure], "two samples missing: a gap")
        XCTAssertEqual(
            sources(t.plan(sample: 3, time: 4 * interval, boxes: [moved], crops: [face])), [.borrow(sample: 2, face: 0)],
            "the sample after the gap is the source from now on")
    }

    func testFacesAreMatchedOneToOneByOverlap() throws {
        let a = try crop("obama.png"), b = try crop("collins.png")
        let left = box, right = Box(x: 300, y: 80, width: 60, height: 72)
        var t = tracker()
        XCTAssertEqual(t.plan(sample: 0, time: 0, boxes: [left, right], crops: [a, b]), [.measure, .measure])
        // Detector order changes; each face still finds its own track.
        XCTAssertEqual(
            sources(t.plan(sample: 1, time: interval, boxes: [right, left], crops: [b, a])),
            [.borrow(sample: 0, face: 1), .borrow(sample: 0, face: 0)])
        // A third face appears: it alone is new.
        XCTAssertEqual(
            sources(
                t.plan(
                    sample: 2, time: 2 * interval, boxes: [left, Box(x: 500, y: 80, width: 60, height: 72), right],
                    crops: [a, try crop("biden.png"), b])),
            [.borrow(sample: 0, face: 0), .measure, .borrow(sample: 0, face: 1)])
    }

    func testLikenessSeparatesFacesButNotAFaceFromItself() throws {
        let names = ["obama.png", "biden.png", "collins.png", "solvay_00.png", "solvay_04.png", "solvay_08.png"]
        let looks = try names.map { FaceTracker.Look(try crop($0)) }
        let minLikeness = FaceTracker.Rules(maxGap: 1).minLikeness
        for i in looks.indices {
            XCTAssertEqual(looks[i].likeness(looks[i]), 1, accuracy: 1e-5)
            XCTAssertGreaterThan(FaceTracker.Look(brighter(try crop(names[i]), by: 12)).likeness(looks[i]), 0.99)
            for j in looks.indices where j != i {
                XCTAssertLessThan(looks[i].likeness(looks[j]), minLikeness, "\(names[i]) vs \(names[j])")
            }
        }
        XCTAssertEqual(FaceTracker.Look(try crop("grey.png")).likeness(looks[0]), 0, accuracy: 1e-5, "a flat crop is like nothing")
    }
}
