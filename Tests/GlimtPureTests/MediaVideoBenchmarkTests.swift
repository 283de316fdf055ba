import Foundation
import XCTest
@testable import Imaging
@testable import MediaIO

/// Measures sampled-frame decoding; runs only with GLIMT_MEDIA_BENCH=1 (timings need a quiet
/// machine). Video: GLIMT_MEDIA_BENCH_VIDEO, else shared/videos/poetry_jam_2009.mp4 beside the repo.
final class MediaVideoBenchmarkTests: XCTestCase {
    func testSampledFrameCost() throws {
        let path = try MediaFixtures.benchmarkVideo()
        let reader = try VideoReader(path: path)
        print("bench: \(path): \(reader.info.codecName) \(reader.info.codedWidth)x\(reader.info.codedHeight) \(String(format: "%.2f", reader.info.frameRate)) fps, \(String(format: "%.2f", reader.info.duration)) s")

        let variants: [(String, VideoDecodeOptions)] = [
            ("default", .init()),
            ("default, accurate rounding", .init(accurateRounding: true)),
            ("skip loop filter", .init(skipLoopFilter: true)),
            ("fast flag", .init(fastDecoding: true)),
            ("skip non-reference frames", .init(skipNonReferenceFrames: true)),
            ("all cheap switches", .cheap),
            ("default, one thread", .init(threads: 1)),
            ("all cheap, one thread", .init(threads: 1, skipLoopFilter: true, fastDecoding: true, skipNonReferenceFrames: true)),
        ]
        for (name, options, interval) in variants.map({ ($0.0, $0.1, 1.0 / 8) }) + [("decoding only (one sample)", VideoDecodeOptions(), 1000.0)] {
            var best = Double.infinity
            var samples = 0, decoded = 0
            for _ in 0..<5 {
                let clock = ContinuousClock.now
                let frames = try reader.frames(every: interval, longSide: 640, options: options)
                samples = try frames.collect().count
                decoded = frames.framesDecoded
                let elapsed = ContinuousClock.now - clock
                best = min(best, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
            let label = name.padding(toLength: 28, withPad: " ", startingAt: 0)
            print("bench: \(label)" + String(format: "%3d samples, %3d frames decoded, %7.1f ms total, %5.2f ms per sampled frame",
                                                samples, decoded, best, best / Double(samples)))
        }
    }
}
