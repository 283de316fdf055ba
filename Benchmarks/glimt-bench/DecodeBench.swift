import Foundation
import GlimtPure
import MediaIO

/// `glimt-bench decode VIDEO...`: milliseconds per frame sampled as analysis samples (rate and
/// size from `AnalysisOptions`), decoding every picture, then by default (pictures neither sampled
/// nor referred to left undecoded), with each decoder shortcut, then decoding alone. Best of 5
/// runs: the run least disturbed by the rest of the machine.
enum DecodeBench {
    static func run(_ videos: [String]) throws {
        let analysis = AnalysisOptions()
        let interval = 1 / analysis.sampleRate
        let variants: [(String, VideoDecodeOptions, Double)] = [
            ("every picture decoded", .init(decodeEveryPicture: true), interval),
            ("default (unneeded skipped)", .init(), interval),
            ("samples on reference pictures", .init(sampleReferencePictures: true), interval),
            ("default, accurate rounding", .init(accurateRounding: true), interval),
            ("skip loop filter", .init(skipLoopFilter: true), interval),
            ("fast flag", .init(fastDecoding: true), interval),
            ("skip non-reference frames", .init(skipNonReferenceFrames: true), interval),
            ("all cheap switches", .cheap, interval),
            ("default, one thread", .init(threads: 1), interval),
            ("all cheap, one thread", .init(threads: 1, skipLoopFilter: true, fastDecoding: true, skipNonReferenceFrames: true), interval),
            // One sample: every picture decoded, but only the first converted.
            ("decoding only (one sample)", .init(decodeEveryPicture: true), 1000),
        ]
        for video in videos {
            let reader = try VideoReader(path: video)
            let info = reader.info
            print(
                "\(video): \(info.codecName) \(info.codedWidth)x\(info.codedHeight) \(String(format: "%.2f", info.frameRate)) fps, \(String(format: "%.2f", info.duration)) s"
            )
            for (name, options, every) in variants {
                var best = Double.infinity
                var samples = 0, decoded = 0
                for _ in 0..<5 {
                    best = min(
                        best,
                        try Timing.milliseconds {
                            let frames = try reader.frames(every: every, longSide: analysis.analysisSide, options: options)
                            samples = try frames.collect().count
                            decoded = frames.framesDecoded
                        })
                }
                print(
                    "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                        + String(
                            format: "%3d samples, %3d frames decoded, %7.1f ms total, %5.2f ms per sampled frame", samples, decoded, best,
                            best / Double(samples)))
            }
        }
    }
}
