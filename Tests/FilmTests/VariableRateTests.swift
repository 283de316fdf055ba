import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// A variable-rate video with a gap (a phone dropping frames in the dark: frames to 0.33 s, the
/// next at 2.4 s): every reader of pictures shows what a player shows inside the gap, the last
/// frame before it, so a thumbnail, a preview and the film agree.
final class VariableRateTests: XCTestCase {
    private let clip = Fixtures.path("media/vfr_gap.mp4")

    /// Frame n of the fixture is grey 8 * n.
    private func frameNumber(_ image: RGBImage) -> Int {
        Int((Double(image.pixel(2, 2).g) / 8).rounded())
    }

    func testAStillInsideTheGapIsTheFrameOnScreenThere() throws {
        XCTAssertEqual(frameNumber(try StillFrame.at(0.77, in: clip)), 10, "the 0.333 s frame is on screen until 2.4 s")
        XCTAssertEqual(frameNumber(try StillFrame.at(2.0, in: clip)), 10)
        XCTAssertEqual(frameNumber(try StillFrame.at(0.1, in: clip)), 3, "outside the gap, the frame at the time")
        XCTAssertEqual(frameNumber(try StillFrame.at(2.45, in: clip)), 13, "after the gap, the next frame from the time on, as ever")
    }

    func testASecondCutInsideTheGapIsRenderedAsAPreviewIs() throws {
        var film = FilmOptions()
        (film.width, film.height, film.audio, film.caption, film.seconds) = (160, 96, false, .none, 1)
        let out = temporaryFolder(self).appendingPathComponent("preview.mp4").path
        try FilmRenderer(options: film).render(
            [FilmSegment(day: "", video: clip, start: 0.77, crop: Box(x: 0, y: 0, width: 160, height: 96))], to: out)
        let frames = try VideoReader(path: out).frames(from: 0, to: 2, depth: .eightBit).collect()
        XCTAssertEqual(frames.count, 30)
        for f in frames {
            guard case .rgb8(let image) = f.picture else { return XCTFail("8-bit") }
            XCTAssertEqual(frameNumber(image), 10, "at \(f.time)")
        }
    }

    func testTheLastFrameIsOnScreenUntilTheVideosEnd() throws {
        XCTAssertEqual(frameNumber(try StillFrame.at(3.02, in: clip)), 29, "a second pinned in the last frame's time still has its picture")
    }
}
