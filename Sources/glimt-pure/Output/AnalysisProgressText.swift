import Foundation
import GlimtPure

/// An analysis' progress as its line says it: `analysing 2/5 beach.mp4 31.5/63.0 s`.
enum AnalysisProgressText {
    static func line(_ p: AnalysisProgress) -> String {
        String(format: "analysing %d/%d ", p.videoIndex + 1, p.videoCount) + "\(ShownPath.escaped(URL(fileURLWithPath: p.path).lastPathComponent)) "
            + String(format: "%.1f/%.1f s", p.time, p.duration)
    }
}
