import Faces
import Foundation
import GlimtPure
import MediaIO

/// `glimt-bench analyze VIDEO...`: per-stage time per analysed frame, and what each decoder
/// shortcut gains and whether it changes what is picked (window start, crop, identity evidence),
/// against decoding every picture. The analysis's own default skips the loop filter and leaves
/// pictures nothing needs undecoded.
enum AnalyzeBench {
    static func run(_ videos: [String], reference: String?) throws {
        let pipeline = try FacePipeline.shared()
        let refs =
            try reference.map {
                [
                    try References.make(
                        photo: $0, faceNumber: nil, models: FaceModels(pipeline), id: 1,
                        sheetFolder: FileManager.default.temporaryDirectory
                    ).0
                ]
            } ?? []
        let standard = AnalysisOptions().decoding
        func variant(_ change: (inout AnalysisOptions.Decoding) -> Void) -> AnalysisOptions.Decoding {
            var options = standard
            change(&options)
            return options
        }
        // The first row is the baseline the others' picks are compared with.
        let variants: [(String, AnalysisOptions.Decoding)] = [
            ("every picture", variant { $0.decodeEveryPicture = true }),
            ("default", standard),
            ("no reference shift", variant { $0.referenceSamplesBeyondFullHD = false }),
            ("with loop filter", variant { $0.skipLoopFilter = false }),
            ("+ fast flag", variant { $0.fastDecoding = true }),
            ("+ all non-ref", variant { $0.skipNonReferenceFrames = true }),
        ]
        for video in videos {
            var baseline: VideoAnalysis?
            print("\(video)")
            print("  decoding              decode  convert   detect  align+embed  score  total ms/frame   frames  pick")
            for (name, decode) in variants {
                var options = AnalysisOptions()
                options.decoding = decode
                let analyzer = VideoAnalyzer(options: options, references: refs.map(\.embedding), pipeline: pipeline)
                let wall = DispatchTime.now().uptimeNanoseconds
                let a = try analyzer.analyze(path: video)
                let total = Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e6 / Double(max(1, a.times.frames))
                let t = a.times, n = Double(max(1, t.frames))
                let pick = a.window.map { String(format: "%.2f s", $0.start) } ?? "none"
                var same = ""
                if let b = baseline {
                    // Same pick: same window, same decision, crop within 1 % of the frame.
                    let dx = abs((b.crop?.box.x ?? 0) - (a.crop?.box.x ?? 0)), dy = abs((b.crop?.box.y ?? 0) - (a.crop?.box.y ?? 0))
                    let dh = abs((b.crop?.box.height ?? 0) - (a.crop?.box.height ?? 0))
                    let tol = 0.01 * Float(max(a.width, a.height))
                    let samePick =
                        b.window?.start == a.window?.start && b.identity?.containsPerson == a.identity?.containsPerson && max(dx, dy, dh) <= tol
                    same = (samePick ? " (same" : " (CHANGED") + String(format: ", crop moved %.1f px)", max(dx, dy, dh))
                } else {
                    baseline = a
                }
                print(
                    "  " + name.padding(toLength: 20, withPad: " ", startingAt: 0)
                        + String(
                            format: "%7.2f %8.2f %8.2f %12.2f %6.2f %10.2f %12d  ", t.decode / n * 1000, t.convert / n * 1000, t.detect / n * 1000,
                            t.alignEmbed / n * 1000, t.score / n * 1000, total, t.frames) + pick + same)
            }
        }
    }
}
