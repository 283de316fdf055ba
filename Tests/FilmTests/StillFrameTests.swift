import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import Imaging
@testable import MediaIO

/// The pictures sheets, thumbnails and suggestions show are the film's own.
final class StillFrameTests: XCTestCase {
    /// Frames as the film shows them: a rotated phone video upright, an HDR one tone-mapped.
    func testStillFramesAreUprightAndToneMapped() throws {
        let portrait = try StillFrame.at(nil, in: Fixtures.path("media/h264_portrait.mp4"))
        XCTAssertEqual([portrait.width, portrait.height], [180, 320])
        let hlg = Fixtures.path("media/hevc10_hlg.mp4")
        let reader = try VideoReader(path: hlg)
        guard case .rgb16(let wide) = try XCTUnwrap(try reader.frames(from: 0.5, to: 1).next()).picture else { return XCTFail("a 10-bit clip") }
        XCTAssertEqual(try StillFrame.at(0.5, in: hlg), ToneMap(transfer: try XCTUnwrap(reader.info.colour.hdrTransfer)).apply(wide))
    }
}
