import TestSupport
import XCTest

@testable import GlimtCore
@testable import MediaIO

/// Every photo and video is opened through MediaInput: local files only, nothing a file names.
final class MediaInputTests: XCTestCase {
    private func playlist(pointingAt target: String) -> [UInt8] {
        Array("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n\(target)\n#EXT-X-ENDLIST\n".utf8)
    }

    /// An HLS playlist named like a video, pointing at another local file, is refused before any
    /// demuxer reads it, with one line naming the file.
    func testPlaylistDisguisedAsMP4IsRefused() throws {
        let folder = temporaryFolder(self).path
        let secret = folder + "/secret.mp4"
        try FileManager.default.copyItem(atPath: Fixtures.path("media/h264_portrait.mp4"), toPath: secret)
        for target in [secret, "secret.mp4", "file://" + secret, "http://127.0.0.1:9/secret.ts"] {
            let evil = MediaFixtures.write(playlist(pointingAt: target), folder, "evil.mp4")
            let expected = GlimtError("refused: it is a playlist or reference file (hls) that points at other files or URLs", path: evil)
            XCTAssertEqual(MediaFixtures.glimtError { _ = try MediaInput(path: evil) }, expected)
            XCTAssertEqual(MediaFixtures.glimtError { _ = try VideoReader(path: evil) }, expected)
            XCTAssertEqual(MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: evil) }, expected)
        }
    }

    /// Even with the HLS demuxer let through, its nested open of the other file is refused by
    /// the io_open hook: the second lock holds on its own.
    func testNestedOpensAreRefusedEvenWhenADemuxerIsAllowed() throws {
        let folder = temporaryFolder(self).path
        let secret = folder + "/secret.mp4"
        try FileManager.default.copyItem(atPath: Fixtures.path("media/h264_portrait.mp4"), toPath: secret)
        for target in [secret, "http://127.0.0.1:9/secret.ts"] {
            let evil = MediaFixtures.write(playlist(pointingAt: target), folder, "evil.mp4")
            do {
                let input = try MediaInput(path: evil, formats: MediaFormats.all.adding(["hls"]))
                XCTAssertTrue(input.refusedOpens.contains { $0.contains("secret") }, "\(input.refusedOpens)")
                XCTAssertNil(input.videoStreamIndex, "no stream may come from the other file")
            } catch let error as GlimtError {
                XCTAssertTrue(error.reason.hasPrefix("refused: it asks to read another file or URL"), error.description)
                XCTAssertTrue(error.reason.contains("secret"), error.description)
                XCTAssertEqual(error.path, evil)
                XCTAssertFalse(error.description.contains("\n"))
            }
        }
    }

    func testConcatListDisguisedAsPhotoIsRefused() throws {
        let folder = temporaryFolder(self).path
        let evil = MediaFixtures.write(Array("ffconcat version 1.0\nfile '\(Fixtures.path("media/photo.webp"))'\n".utf8), folder, "holiday.jpg")
        let error = MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: evil) }
        XCTAssertEqual(error, GlimtError("refused: it is a playlist or reference file (concat) that points at other files or URLs", path: evil))
    }

    /// A name that looks like a protocol is still just a local file.
    func testFileNamesThatLookLikeURLsAreLocalFiles() throws {
        let folder = temporaryFolder(self).path
        let image = MediaFixtures.quadrants(width: 8, height: 8)
        for name in ["http:example.png", "concat:a.png", "data:x.png"] {
            let path = folder + "/" + name
            try ImageEncoder.writePNG(image, to: path)
            XCTAssertEqual(try ImageDecoder.decode(path: path), image)
        }
    }
}
