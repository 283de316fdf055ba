import CFFmpeg
import Foundation
import XCTest
@testable import Imaging
@testable import MediaIO
@testable import Analysis

/// Measures film encoding at phone-portrait size (1080x1920); runs only with GLIMT_MEDIA_BENCH=1.
/// Frames: GLIMT_MEDIA_BENCH_VIDEO, else shared/videos/poetry_jam_2009.mp4 beside the repo, cut
/// to portrait and enlarged (smoother than a phone's own footage, so also measured with grain).
final class MediaFilmBenchmarkTests: XCTestCase {
    func testFilmEncodeCost() throws {
        let path = try MediaFixtures.benchmarkVideo()

        let width = 1080, height = 1920, count = 60
        let source = try VideoReader(path: path).frames(from: 2, to: 2 + Double(count) / 29.97, depth: .eightBit).collect()
        let smooth = source.prefix(count).map { frame -> RGBImage in
            let image = frame.picture.rgb8
            let cropWidth = min(image.width, image.height * width / height)
            let cropped = Crop.crop(image, x: (image.width - cropWidth) / 2, y: 0, width: cropWidth, height: image.height)
            return Resize.resize(cropped, width: width, height: height)
        }
        var state: UInt64 = 7
        let grainy = smooth.map { image -> RGBImage in
            var copy = image
            for i in copy.pixels.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                copy.pixels[i] = UInt8(clamping: Int(copy.pixels[i]) + Int(state >> 60) - 8)
            }
            return copy
        }
        print("bench: \(smooth.count) frames \(width)x\(height) from \(path), \(ProcessInfo.processInfo.activeProcessorCount) cores")

        // The RGB to yuv420p conversion alone (accurate rounding, BT.709).
        let converter = PixelConverter(unlabelled: .video, accurateRounding: true)
        var rgb = av_frame_alloc(), yuv = av_frame_alloc()
        defer { av_frame_free(&rgb); av_frame_free(&yuv) }
        for (frame, format) in [(rgb!, AV_PIX_FMT_RGB24), (yuv!, AV_PIX_FMT_YUV420P)] {
            frame.pointee.format = format.rawValue
            frame.pointee.width = Int32(width)
            frame.pointee.height = Int32(height)
            XCTAssertGreaterThanOrEqual(av_frame_get_buffer(frame, 64), 0)
        }
        yuv!.pointee.colorspace = AVCOL_SPC_BT709
        yuv!.pointee.color_range = AVCOL_RANGE_MPEG
        let convertStart = ContinuousClock.now
        for _ in 0..<20 { try converter.convert(rgb!, into: yuv!) }
        print("bench: RGB to yuv420p conversion: \(String(format: "%.1f", milliseconds(since: convertStart) / 20)) ms per frame")

        let folder = MediaFixtures.temporaryFolder(self)
        for (name, frames) in [("smooth", smooth), ("grainy", grainy)] {
            for preset in ["medium", "veryfast"] {
                let film = folder + "/\(name)-\(preset).mp4"
                let sound = FilmFixtures.tone(seconds: 1.0 / 30)
                let start = ContinuousClock.now
                let writer = try FilmWriter(path: film, width: width, height: height, quality: .init(preset: preset))
                for frame in frames {
                    try writer.append(frame)
                    try writer.appendAudio(sound)
                }
                try writer.finish()
                let total = milliseconds(since: start)
                let bytes = (try FileManager.default.attributesOfItem(atPath: film)[.size] as? NSNumber)?.intValue ?? 0
                print("bench: \(name) \(preset.padding(toLength: 8, withPad: " ", startingAt: 0)) crf 20: "
                      + String(format: "%6.1f ms per frame, %5.2f Mb/s", total / Double(frames.count), Double(bytes) * 8 / (Double(frames.count) / 30) / 1e6))
            }
        }
    }

    private func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
