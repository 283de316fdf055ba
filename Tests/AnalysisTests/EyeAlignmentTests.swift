import Analysis
import Imaging
import XCTest

/// How the eyes found in a second become one crop per frame (`film --align eyes`).
final class EyeAlignmentTests: XCTestCase {
    private let width = 1080, height = 1920

    /// A face with its eye midpoint at `mid`, eyes `eyes` apart and the mouth `mouth` below them.
    private func face(_ mid: Point, eyes: Float, mouth: Float) -> [Point] {
        [
            Point(mid.x - eyes / 2, mid.y), Point(mid.x + eyes / 2, mid.y), Point(mid.x, mid.y + mouth / 2),
            Point(mid.x - eyes / 3, mid.y + mouth), Point(mid.x + eyes / 3, mid.y + mouth),
        ]
    }

    private func crops(_ faces: [[Point]?]) -> [Box] {
        guard case .aligned(let crops, _) = EyeAlignment.crops(faces, width: width, height: height) else {
            XCTFail("not aligned")
            return []
        }
        return crops
    }

    /// Where frame `k`'s eyes land in the film, and how far apart, as shares of its height.
    private func shown(_ face: [Point], in c: Box) -> (x: Float, y: Float, distance: Float) {
        let s = Float(height) / c.height
        let mx = (face[0].x + face[1].x) / 2, my = (face[0].y + face[1].y) / 2
        return ((mx - c.x) * s / Float(height), (my - c.y) * s / Float(height), (face[1].x - face[0].x) * s / Float(height))
    }

    func testEyesLandAtOnePlaceAndSizeWhereverTheyAre() {
        for (mid, eyes) in [(Point(500, 400), Float(80)), (Point(1500, 900), 200), (Point(20, 1000), 120)] {
            let faces = [[Point]?](repeating: face(mid, eyes: eyes, mouth: eyes), count: 30)
            let c = crops(faces)
            XCTAssertEqual(c.count, 30)
            let s = shown(faces[0]!, in: c[10])
            XCTAssertEqual(s.x, EyeAlignment.eyePoint.x * Float(width) / Float(height), accuracy: 1e-4)
            XCTAssertEqual(s.y, EyeAlignment.eyePoint.y, accuracy: 1e-4)
            XCTAssertEqual(s.distance, EyeAlignment.eyeDistance, accuracy: 1e-4)
            XCTAssertEqual(c[10].width / c[10].height, Float(width) / Float(height), accuracy: 1e-4)
        }
    }

    /// Detector jitter of up to 6 pixels either way in every frame: the picture moves, frame to
    /// frame, by less than a third as much as the eyes found.
    func testJitterIsSmoothed() {
        var seed: UInt32 = 7
        func jitter() -> Float {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(seed >> 8) / Float(1 << 24) * 12 - 6
        }
        let faces: [[Point]?] = (0..<30).map { _ in face(Point(600 + jitter(), 500 + jitter()), eyes: 150 + jitter(), mouth: 150) }
        let c = crops(faces)
        func steps(_ v: [Float]) -> Float { zip(v, v.dropFirst()).map { abs($1 - $0) }.reduce(0, +) / Float(v.count - 1) }
        XCTAssertLessThan(steps(c.map(\.center.x)), steps(faces.map { ($0![0].x + $0![1].x) / 2 }) / 3)
        XCTAssertLessThan(steps(c.map(\.height)) / c[0].height, steps(faces.map { $0![1].x - $0![0].x }) / 150 / 3)
    }

    /// A head turned sideways for a few frames narrows the eyes, not the eye-to-mouth line: the
    /// picture zooms in by a tenth at most, not by the 47 % the eyes narrow.
    func testATurnedHeadDoesNotZoomIn() {
        let faces: [[Point]?] = (0..<30).map { k in face(Point(600, 500), eyes: (10..<20).contains(k) ? 80 : 150, mouth: 150) }
        let hs = crops(faces).map(\.height)
        XCTAssertLessThan((hs.max()! - hs.min()!) / hs.max()!, 0.11)
    }

    /// Frames without the face take their neighbours' values; too few frames with it, and the
    /// second is not aligned.
    func testGapsAreFilledAndTooFewFacesAreSaid() {
        var faces: [[Point]?] = (0..<30).map { k in face(Point(400 + 10 * Float(k), 500), eyes: 150, mouth: 150) }
        for k in [0, 1, 14, 15, 16, 29] { faces[k] = nil }
        let c = crops(faces)
        XCTAssertEqual(c.count, 30)
        XCTAssertTrue(c.allSatisfy { $0.isFinite })
        XCTAssertLessThan(c[15].center.x - c[13].center.x, 40, "the gap continues the motion")
        XCTAssertGreaterThan(c[15].center.x, c[13].center.x)

        let few = (0..<30).map { k in k < 14 ? face(Point(600, 500), eyes: 150, mouth: 150) : nil }
        XCTAssertEqual(EyeAlignment.crops(few, width: width, height: height), .tooFewEyes(found: 14, frames: 30))
    }

    /// A face so small that its eyes at the film's size would need more than `maxEnlargement`
    /// is shown smaller, and the outcome says so.
    func testASmallFaceIsNotEnlargedPastTheLimit() {
        let faces = [[Point]?](repeating: face(Point(300, 300), eyes: 20, mouth: 20), count: 30)
        guard case .aligned(let crops, let limited) = EyeAlignment.crops(faces, width: width, height: height) else { return XCTFail() }
        XCTAssertTrue(limited)
        XCTAssertEqual(crops[0].height, Float(height) / EyeAlignment.maxEnlargement, accuracy: 0.01)
        let s = shown(faces[0]!, in: crops[0])
        XCTAssertEqual(s.y, EyeAlignment.eyePoint.y, accuracy: 1e-4, "still in place")
    }

    /// The eyes as the film's own frames show them (`ShownEyes`) put the plan right: seen 8 %
    /// too far apart and 30 pixels off, the corrected crops bring them to the eye point and
    /// distance, every frame alike; too few frames seen, or a correction past the trusted, leave
    /// the crops as they were; a crop at the enlargement limit is not made smaller.
    func testTheEyesSeenInTheFilmCorrectTheCrops() {
        let faces = [[Point]?](repeating: face(Point(700, 600), eyes: 100, mouth: 100), count: 30)
        let planned = crops(faces)
        let H = Float(height), W = Float(width)
        // The film shows the eyes 8 % further apart than planned, their midpoint 30 px right, 20 px down.
        let d = 1.08 * EyeAlignment.eyeDistance * H, m = Point(EyeAlignment.eyePoint.x * W + 30, EyeAlignment.eyePoint.y * H + 20)
        let seen = [0, 6, 12, 18, 24].map { EyeAlignment.Seen(frame: $0, right: Point(m.x - d / 2, m.y), left: Point(m.x + d / 2, m.y)) }
        guard let c = EyeAlignment.correction(seen: seen, looked: 5, width: width, height: height) else { return XCTFail() }
        XCTAssertEqual(c.scale, 1.08, accuracy: 1e-4)
        XCTAssertFalse(c.isSmall(height: height))
        let fixed = EyeAlignment.corrected(planned, by: c, width: width, height: height)
        for k in [0, 15, 29] {
            // Where the film showed the eyes (in the picture), now shown through the corrected crop.
            let p = planned[k], q = fixed[k]
            let eye = Point(p.x + m.x * p.width / W, p.y + m.y * p.height / H)
            XCTAssertEqual((eye.x - q.x) / q.width * W, EyeAlignment.eyePoint.x * W, accuracy: 0.01)
            XCTAssertEqual((eye.y - q.y) / q.height * H, EyeAlignment.eyePoint.y * H, accuracy: 0.01)
            XCTAssertEqual(d * p.width / W / q.width * W, EyeAlignment.eyeDistance * H, accuracy: 0.01, "eye distance")
        }
        XCTAssertNil(EyeAlignment.correction(seen: Array(seen.prefix(2)), looked: 5, width: width, height: height), "2 of 5 seen")
        let far = seen.map { EyeAlignment.Seen(frame: $0.frame, right: Point($0.right.x - 200, $0.right.y), left: Point($0.left.x + 200, $0.left.y)) }
        XCTAssertNil(EyeAlignment.correction(seen: far, looked: 5, width: width, height: height), "another face")
        let atLimit = [Box(x: 0, y: 0, width: W / EyeAlignment.maxEnlargement, height: H / EyeAlignment.maxEnlargement)]
        let smaller = EyeAlignment.Correction(scale: 0.9, dx: 0, dy: 0)
        XCTAssertEqual(EyeAlignment.corrected(atLimit, by: smaller, width: width, height: height)[0].height, atLimit[0].height, accuracy: 1e-3)
    }
}
