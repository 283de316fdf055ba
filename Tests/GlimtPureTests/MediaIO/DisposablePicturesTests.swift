import XCTest
@testable import MediaIO

/// Sampling leaves pictures that are neither samples nor referred to by another picture
/// undecoded; the samples must be the very frames, with the very pixels, of decoding them all.
final class DisposablePicturesTests: XCTestCase {
    private struct Case {
        let path: String
        /// Whether the clip has B-frames nothing refers to, so some pictures must be skipped.
        let skips: Bool
    }

    private let cases = [
        Case(path: MediaFixtures.path("h264_portrait.mp4"), skips: true),
        Case(path: MediaFixtures.path("vfr_h264.mp4"), skips: true),  // variable frame rate
        Case(path: MediaFixtures.path("hevc10_hlg.mp4"), skips: true),  // HEVC Main 10
        Case(path: Fixtures.url("camera_roll/IMG_0042.MOV").path, skips: false),  // no B-frames
        Case(path: Fixtures.url("analysis/hevc10.mp4").path, skips: true),
        Case(path: MediaFixtures.path("audio_gap.mkv"), skips: true),  // Matroska: FFmpeg derives decode stamps
        Case(path: MediaFixtures.path("anamorphic.mp4"), skips: false),  // no B-frames
        Case(path: MediaFixtures.path("av1.mkv"), skips: false),  // not H.264 or HEVC
    ]

    func testSamplesAreTheFramesOfDecodingEveryPicture() throws {
        var tried = 0
        for c in cases {
            var skipped = 0
            for (interval, start, end) in [(0.125, 0.0, Double.infinity), (0.25, 0.0, .infinity), (1.0 / 3, 0.0, .infinity), (0.5, 0.7, 1.6), (0.1, 0.0, 1.0)] {
                let every = try VideoReader(path: c.path).frames(every: interval, longSide: 96, from: start, to: end,
                                                                 options: VideoDecodeOptions(decodeEveryPicture: true))
                let expected = try every.collect()
                XCTAssertEqual(every.picturesSkipped, 0)
                let some = try VideoReader(path: c.path).frames(every: interval, longSide: 96, from: start, to: end)
                let got = try some.collect()
                let name = "\((c.path as NSString).lastPathComponent) every \(interval) s from \(start)"
                XCTAssertFalse(expected.isEmpty, name)
                XCTAssertEqual(got.map(\.time), expected.map(\.time), name)
                XCTAssertTrue(got == expected, "pixels of \(name)")
                if end == .infinity {
                    XCTAssertEqual(some.framesDecoded + some.picturesSkipped, every.framesDecoded, "every picture is decoded or skipped: \(name)")
                } else {
                    XCTAssertLessThanOrEqual(some.framesDecoded, every.framesDecoded, name)
                }
                skipped += some.picturesSkipped
                tried += 1
            }
            if c.skips {
                XCTAssertGreaterThan(skipped, 0, "\(c.path) has B-frames nothing refers to")
            } else {
                XCTAssertEqual(skipped, 0, c.path)
            }
        }
        XCTAssertEqual(tried, cases.count * 5)
    }

    /// A sample that falls on a picture nothing refers to is still decoded: at 30 fps every
    /// picture is a sample, so nothing may be skipped.
    func testEveryPictureWantedSkipsNone() throws {
        let frames = try VideoReader(path: MediaFixtures.path("h264_portrait.mp4")).frames(every: 1.0 / 60, longSide: 64)
        XCTAssertEqual(try frames.collect().count, 60)
        XCTAssertEqual(frames.picturesSkipped, 0)
    }
}
