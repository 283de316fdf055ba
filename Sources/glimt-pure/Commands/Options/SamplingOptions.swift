import Foundation
import GlimtPure

/// How videos are sampled when they are analysed; each default is `AnalysisOptions`' own.
struct SamplingOptions: ParsedGroup {
    let sampleRate = NumberOption(
        "--sample-rate", "F", default: AnalysisOptions().sampleRate, range: AnalysisOptions.sampleRates,
        "Frames analysed per second of video")
    let side = NumberOption(
        "--side", "N", default: AnalysisOptions().analysisSide, range: AnalysisOptions.analysisSides,
        "Long side, in pixels, of analysis frames (more finds smaller faces in crowds and costs more)")
    let timeZone = TextOption("--timezone", "TZ", default: "this machine's", "Time zone for UTC capture times and file times, e.g. Europe/Berlin")

    /// The analysis options these set, the others standard.
    static func value(_ args: Arguments<SamplingOptions>) throws -> AnalysisOptions {
        var o = AnalysisOptions()
        o.sampleRate = try args.value(\.sampleRate)
        o.analysisSide = try args.value(\.side)
        if let tz = args.value(\.timeZone) {
            guard let zone = TimeZone(identifier: tz) else { throw UsageError("unknown time zone '\(tz)' (use a name like Europe/Berlin)") }
            o.timeZone = zone
        } else if let problem = MachineTimeZone.problem() {
            Console.err("glimt-pure \(args.command): \(problem)")
        }
        return o
    }
}
