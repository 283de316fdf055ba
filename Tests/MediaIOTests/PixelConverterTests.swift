import CFFmpeg
import Foundation
import TestSupport
import XCTest

@testable import Imaging
@testable import MediaIO

/// Which libswscale path a picture takes. Analysis samples of a video that shrinks by less than
/// half (480p, an anamorphic 720p) average areas as larger ones do: bicubic with full chroma
/// interpolation is libswscale's slowest path, several times the cost. A film's pictures keep
/// bicubic there.
final class PixelConverterTests: XCTestCase {
    func testAnalysisSamplesAverageEveryShrinkAndFilmsKeepBicubic() throws {
        let path = Fixtures.url("analysis/two_people.mp4").path  // 480x270
        let input = try MediaInput(path: path)
        let index = try XCTUnwrap(input.bestStream(AVMEDIA_TYPE_VIDEO))
        let reader = try StreamFrameReader(input: input, streamIndex: index, setup: .init(threads: 1))
        let frame = try XCTUnwrap(try reader.next())
        let analysis = PixelConverter(unlabelled: .video, accurateRounding: false, averageEveryShrink: true)
        let film = PixelConverter(unlabelled: .video, accurateRounding: false)

        // To half or less both average areas: the same bytes.
        XCTAssertTrue(
            try analysis.rgbImage(from: frame, width: 240, height: 135).pixels
                == film.rgbImage(from: frame, width: 240, height: 135).pixels, "to half: both average areas")
        // By less than half they part: areas against bicubic.
        let averaged = try analysis.rgbImage(from: frame, width: 400, height: 225)
        XCTAssertTrue(try averaged.pixels != film.rgbImage(from: frame, width: 400, height: 225).pixels, "areas against bicubic")
        // Not shrunk at all, nothing is averaged.
        XCTAssertTrue(
            try analysis.rgbImage(from: frame, width: 480, height: 270).pixels
                == film.rgbImage(from: frame, width: 480, height: 270).pixels, "not shrunk: the same path")

        // The analysis's own samples are the averaged pictures.
        let first = try XCTUnwrap(try VideoReader(path: path).frames(every: 1, longSide: 400).next())
        XCTAssertEqual(first.time, 0, accuracy: 1e-9)
        XCTAssertEqual(first.image.width, 400)
        XCTAssertTrue(first.image.pixels == averaged.pixels, "a sample shrunk by less than half averages areas")
    }
}
