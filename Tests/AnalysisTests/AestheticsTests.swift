import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import Imaging

/// The no-reference "how good does it look" score orders obvious pairs the way a person would.
final class AestheticsTests: XCTestCase {
    private func scene() throws -> RGBImage { Resize.fitting(try Fixtures.image("yunet/two_people.png"), longSide: 448) }

    private func frameScore(_ image: RGBImage) -> (aesthetics: Aesthetics, sharpness: Double, base: Float) {
        let s = Sharpness.score(image)
        let a = Aesthetics.measure(image, sharpness: s)
        return (a, s, FrameScore(aesthetics: a.value, sharpness: Float(s), face: 0, identity: nil).base)
    }

    func testWellExposedBeatsDark() throws {
        let good = try scene()
        var dark = good
        for i in dark.pixels.indices { dark.pixels[i] = UInt8(Float(dark.pixels[i]) * 0.12) }
        let g = frameScore(good), d = frameScore(dark)
        XCTAssertGreaterThan(g.aesthetics.value, d.aesthetics.value + 0.2)
        XCTAssertEqual(d.aesthetics.rejected, "dark")
        XCTAssertNil(g.aesthetics.rejected)
    }

    func testSharpBeatsBlurred() throws {
        let sharp = try scene()
        // Heavy blur: shrink to an eighth and back.
        let blurred = Resize.resize(Resize.resize(sharp, width: sharp.width / 8, height: sharp.height / 8), width: sharp.width, height: sharp.height)
        let s = frameScore(sharp), b = frameScore(blurred)
        XCTAssertGreaterThan(s.sharpness, b.sharpness + 0.25)
        XCTAssertGreaterThan(s.base, b.base)
    }

    func testSceneBeatsAScreenRecording() throws {
        let s = frameScore(try scene())
        // A chat-app-like screen: flat background, coloured bubbles, text.
        var screen = RGBImage(width: 448, height: 263, fill: (245, 245, 247))
        screen.fill(x: 0, y: 0, width: 448, height: 30, RGB(30, 120, 230))
        for row in 0..<5 {
            let y = 40 + row * 44
            let right = row % 2 == 1
            screen.fill(x: right ? 200 : 16, y: y, width: 230, height: 34, right ? RGB(0, 132, 255) : RGB(229, 229, 234))
            screen.text("HELLO THERE \(row)", x: (right ? 200 : 16) + 10, y: y + 10, scale: 2, right ? .white : .black)
        }
        let r = frameScore(screen)
        XCTAssertEqual(r.aesthetics.rejected, "screen")
        XCTAssertGreaterThan(s.base, r.base)
    }

    func testCoveredLensIsRejected() throws {
        let covered = RGBImage(width: 320, height: 180, fill: (70, 30, 25))  // a finger over the lens
        XCTAssertNotNil(frameScore(covered).aesthetics.rejected)
        XCTAssertEqual(frameScore(RGBImage(width: 320, height: 180)).aesthetics.rejected, "dark")
    }

    func testSharpnessCurveIsTheDocumentedOne() {
        XCTAssertEqual(Sharpness.normalized(0), 0)
        XCTAssertEqual(Sharpness.normalized(400), 1 - exp(-1), accuracy: 1e-12)
        XCTAssertLessThan(Sharpness.normalized(100), Sharpness.normalized(1000))
    }
}
