import Foundation
import GlimtCore
import TestSupport
import XCTest

@testable import Film
@testable import Imaging
@testable import MediaIO

/// The stills glimt writes carry its mark, and stay pictures any reader opens.
final class StillImageTests: XCTestCase {
    /// JPEG and PNG, as data and as files: each says glimt made it (a JPEG comment, a PNG `tEXt`
    /// chunk with a valid CRC, which FFmpeg's PNG decoder checks) and decodes to its picture.
    func testEveryStillCarriesGlimtsMarkAndStillDecodes() throws {
        let image = MediaFixtures.quadrants(width: 64, height: 48)
        let folder = temporaryFolder(self)
        for name in ["still.jpg", "still.png"] {
            let path = folder.appendingPathComponent(name).path
            try StillImage.write(image, to: path)
            XCTAssertEqual(OwnMark.maker(stillAt: path), OwnMark.text, name)
            let decoded = try ImageDecoder.decode(path: path)
            XCTAssertEqual([decoded.width, decoded.height], [64, 48], name)
            XCTAssertEqual(MediaFixtures.quadrantLetters(decoded), MediaFixtures.quadrantLetters(image), name)
        }
        XCTAssertEqual(OwnMark.maker(still: try StillImage.jpegData(image)), OwnMark.text)
        XCTAssertEqual(OwnMark.maker(still: try StillImage.pngData(image)), OwnMark.text)
        // A user's picture (the same encoder, no mark; a camera's JPEG with EXIF) is no one's mark.
        XCTAssertNil(OwnMark.maker(still: try ImageEncoder.jpegData(image)))
        XCTAssertNil(OwnMark.maker(still: try ImageEncoder.pngData(image)))
        XCTAssertNil(OwnMark.maker(stillAt: Fixtures.path("yunet/obama.png")))
    }

    /// A film's and a preview's container carries the mark too.
    func testEveryFilmCarriesGlimtsMark() throws {
        let clip = Fixtures.path("media/h264_portrait.mp4")
        let out = temporaryFolder(self).appendingPathComponent("film.mp4").path
        var options = FilmOptions()
        (options.width, options.height, options.audio, options.caption) = (180, 320, false, .none)
        try FilmRenderer(options: options).render(
            [FilmSegment(day: "", video: clip, start: 0, crop: Box(x: 0, y: 0, width: 180, height: 320))], to: out)
        XCTAssertEqual(try VideoReader(path: out).info.tags[OwnMark.videoKey], OwnMark.text)
    }
}
