import CFFmpeg
import Foundation
import TestSupport
import XCTest

@testable import Imaging
@testable import MediaIO

/// What bounds memory where a 4K film's decoder and encoder sit side by side: large pictures
/// decode on slice threads (no picture more per thread), converted pictures go straight into
/// their images, and the encoder reads them where they lie.
final class DecoderMemoryTests: XCTestCase {
    func testLargePicturesAre4KDeeperThan8BitsAndBeyond() throws {
        var info = try VideoReader(path: Fixtures.url("analysis/two_people.mp4").path).info
        XCTAssertEqual(info.pictureBytes, info.codedWidth * info.codedHeight * 3 / 2)
        XCTAssertFalse(info.hasLargePictures)
        (info.codedWidth, info.codedHeight) = (3840, 2160)
        XCTAssertEqual(info.pictureBytes, 12_441_600)
        XCTAssertFalse(info.hasLargePictures, "4K 8-bit: 12.4 MB a picture, frame threads allowed")
        (info.pixelFormat, info.bitDepth) = ("yuv420p10le", 10)
        XCTAssertEqual(info.pictureBytes, 24_883_200)
        XCTAssertTrue(info.hasLargePictures, "4K 10-bit: 25 MB a picture")
        (info.codedWidth, info.codedHeight, info.pixelFormat, info.bitDepth) = (7680, 4320, "yuv420p", 8)
        XCTAssertTrue(info.hasLargePictures, "8K")
    }

    func testSliceThreadsOnlyNeverRunsFrameThreads() throws {
        let path = Fixtures.url("analysis/two_people.mp4").path
        func threading(_ options: VideoDecodeOptions) throws -> Int32 {
            let input = try MediaInput(path: path)
            let index = try XCTUnwrap(input.bestStream(AVMEDIA_TYPE_VIDEO))
            let reader = try StreamFrameReader(input: input, streamIndex: index, setup: .init(threads: 2, options: options))
            XCTAssertNotNil(try reader.next(), "a picture decodes")
            return reader.decoder.context.pointee.active_thread_type
        }
        XCTAssertEqual(try threading(VideoDecodeOptions()) & FF_THREAD_FRAME, FF_THREAD_FRAME, "the default: frame threads")
        XCTAssertEqual(try threading(VideoDecodeOptions(sliceThreadsOnly: true)) & FF_THREAD_FRAME, 0)
    }

    /// Beyond 4K memory allows one frame thread; the decoder then runs slice threads, one per
    /// core (HEVC's wavefront rows), which hold no picture more.
    func testBeyondUHDDecodesOnSliceThreadsOnePerCore() throws {
        let input = try MediaInput(path: Fixtures.path("media/beyond_uhd.mp4"))
        let index = try XCTUnwrap(input.bestStream(AVMEDIA_TYPE_VIDEO))
        let reader = try StreamFrameReader(input: input, streamIndex: index, setup: .init(options: VideoDecodeOptions()))
        XCTAssertNotNil(try reader.next(), "a picture decodes")
        XCTAssertEqual(reader.decoder.context.pointee.active_thread_type, FF_THREAD_SLICE)
        XCTAssertEqual(Int(reader.decoder.context.pointee.thread_count), max(1, ProcessInfo.processInfo.activeProcessorCount))
        XCTAssertEqual(StreamDecoder.threads(0, width: 7680, height: 4320), 1, "one frame thread")
    }

    func testPicturesConvertStraightIntoImagesWithSlack() throws {
        let input = try MediaInput(path: Fixtures.url("analysis/two_people.mp4").path)
        let index = try XCTUnwrap(input.bestStream(AVMEDIA_TYPE_VIDEO))
        let reader = try StreamFrameReader(input: input, streamIndex: index, setup: .init(threads: 1))
        let frame = try XCTUnwrap(try reader.next())
        let converter = PixelConverter(unlabelled: .video)
        // Odd sizes too: rows whose bytes are no multiple of any SIMD width.
        for (width, height) in [(480, 270), (333, 187), (7, 5), (1080, 1920)] {
            let image = try converter.rgbImage(from: frame, width: width, height: height)
            XCTAssertGreaterThanOrEqual(image.pixels.capacity - image.pixels.count, PixelConverter.slack, "\(width)x\(height)")
            // The same conversion into FFmpeg's own padded rows gives the same bytes.
            let padded = try converter.convert(frame, to: AV_PIX_FMT_RGB24, width: width, height: height)
            var expected: [UInt8] = []
            for y in 0..<height {
                let row = padded.pointee.data.0! + y * Int(padded.pointee.linesize.0)
                expected += UnsafeBufferPointer(start: row, count: width * 3)
            }
            XCTAssertEqual(image.pixels, expected, "\(width)x\(height)")
        }
    }

    func testFilmIsTheSameWhetherItsImagesHaveSlackOrNot() throws {
        let folder = temporaryFolder(self).path
        let (width, height) = (96, 64)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<6).map { _ in (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        func film(_ name: String, slack: Bool) throws -> [[UInt8]] {
            let path = folder + "/" + name
            let writer = try FilmWriter(path: path, width: width, height: height, fps: 30, audio: false, quality: .standard)
            for pixels in noise {
                let bytes =
                    slack
                    ? [UInt8](unsafeUninitializedCapacity: pixels.count + 2 * PixelConverter.slack) { buffer, count in
                        _ = buffer.initialize(from: pixels)
                        count = pixels.count
                    } : pixels
                XCTAssertEqual(bytes.capacity - bytes.count >= PixelConverter.slack, slack, "the path under test")
                try writer.append(RGBImage(width: width, height: height, pixels: bytes))
            }
            try writer.finish()
            return try VideoReader(path: path).frames(from: 0, to: 10).collect().map { $0.picture.rgb8.pixels }
        }
        let lent = try film("lent.mp4", slack: true), copied = try film("copied.mp4", slack: false)
        XCTAssertEqual(lent.count, noise.count)
        XCTAssertEqual(lent, copied)
    }
}
