import Foundation
import GlimtPure

/// Options shared by the commands that analyse or judge videos, in groups.
enum AnalysisArguments {
    static let references: [OptionSpec] = [
        .value("--ref", "PHOTO[:FACE]", repeatable: true, completion: .file,
               "A reference photo of the person (up to 5; FACE picks one of several faces, numbered as 'glimt-pure faces' shows). Used for this run only. Without --ref, the references stored with 'glimt-pure reference add' are used"),
        .flag("--no-refs", "Ignore stored references: pick the best-looking second with a clear face"),
        CommonOptions.library,
    ]

    static let sampling: [OptionSpec] = [
        .value("--sample-rate", "F", "Frames analysed per second of video (default 8)"),
        .value("--side", "N", "Long side, in pixels, of analysis frames (default 640; more finds smaller faces in crowds and costs more)"),
        .value("--timezone", "TZ", "Time zone for UTC capture times and file times (default: this machine's), e.g. Europe/Berlin"),
    ]

    /// Only for commands that analyse for one set of references (the library samples everything).
    static let fullPass = OptionSpec.flag("--full-pass", "Sample every second of long videos at the full rate, instead of looking at their keyframes first and sampling fully only around the best of them (slower, the same picks on the test clips)")

    /// Only for commands that analyse for one set of references (the library embeds every face).
    static let everyFace = OptionSpec.flag("--every-face", "Embed every face of every sampled frame. By default, with references, a face that stays put and looks the same is embedded every sixth frame and lends its embedding to the frames between while it is clearly the person or clearly not (faster, the same picks on the test clips)")

    static let identity: [OptionSpec] = [
        .value("--match-threshold", "C", "Cosine from which a face is the person (default 0.45)"),
        .value("--strong-threshold", "C", "Cosine at which one frame is enough (default 0.57)"),
        .value("--frames-needed", "N", "Frames at the match threshold needed otherwise (default 2)"),
    ]

    /// Kinds of recording set aside by default (see `Recording` in the README's table).
    static let recordings: [OptionSpec] = [
        .flag("--live-photos", "Let Live Photos' movies (the 1.5-3 s clip beside an iPhone photo) compete for their days; set aside by default"),
        .flag("--screen-recordings", "Let screen recordings compete for their days; set aside by default"),
    ]

    static let aspect = OptionSpec.value("--aspect", "A", completion: .choices(Aspect.allCases.map(\.rawValue)),
                                         "portrait (default), landscape or square: the shape crops are framed for")

    static let withoutChild = OptionSpec.value("--without-child", "include|skip", completion: .choices(DayPick.WithoutPerson.allCases.map(\.rawValue)),
                                               "A day none of whose videos shows the person: skip it (default) or include its best second anyway, marked as without the child")

    static func analysisOptions(_ args: Arguments) throws -> AnalysisOptions {
        var o = AnalysisOptions()
        o.sampleRate = try args.double("--sample-rate", default: 8, range: 0.5...120)
        o.analysisSide = try args.int("--side", default: 640, range: 96...4096)
        o.aspect = try args.choice("--aspect", default: Aspect.portrait).ratio
        if let tz = args.value("--timezone") {
            guard let zone = TimeZone(identifier: tz) else { throw UsageError("unknown time zone '\(tz)' (use a name like Europe/Berlin)") }
            o.timeZone = zone
        }
        o.thresholds = try thresholds(args)
        o.withoutPerson = try args.choice("--without-child", default: DayPick.WithoutPerson.skip)
        o.coarseToFine = !args.flag("--full-pass")
        o.tracking = !args.flag("--every-face")
        o.recordings = RecordingChoice(livePhotos: args.flag("--live-photos"), screenRecordings: args.flag("--screen-recordings"))
        return o
    }

    /// The identity thresholds; options a command does not take keep their standard values.
    static func thresholds(_ args: Arguments) throws -> Identity.Thresholds {
        let standard = Identity.Thresholds.standard
        return Identity.Thresholds(
            match: Float(try args.double("--match-threshold", default: Double(standard.match), range: -1...1)),
            strong: Float(try args.double("--strong-threshold", default: Double(standard.strong), range: -1...1)),
            framesNeeded: try args.int("--frames-needed", default: standard.framesNeeded, range: 1...1000))
    }

    static func library(_ args: Arguments) -> URL { LibraryLocation.resolve(args.value("--library")) }

    static func references(_ args: Arguments) throws -> References.Choice {
        if args.flag("--no-refs") {
            guard args.all("--ref").isEmpty else { throw UsageError("--no-refs and --ref contradict each other") }
            return .none
        }
        let photos = args.all("--ref")
        return photos.isEmpty ? .stored(library: library(args)) : .photos(photos)
    }

    static func describe(_ p: AnalysisProgress) -> String {
        String(format: "analysing %d/%d ", p.videoIndex + 1, p.videoCount) + "\(URL(fileURLWithPath: p.path).lastPathComponent) "
            + String(format: "%.1f/%.1f s", p.time, p.duration)
    }

    /// Runs the analysis with a progress line on stderr and one line per bad file.
    static func run(_ inputs: [String], _ args: Arguments, command: String, options: AnalysisOptions) throws -> AnalysisRun.Result {
        let progress = ProgressLine()
        let result = try AnalysisRun.run(inputs: inputs, options: options, references: try references(args), progress: { p in
            progress.update(describe(p))
        }, report: { f in
            progress.clear()
            Console.err("glimt-pure \(command): \(ShownPath.escaped(f.path)): \(f.reason)")
        })
        progress.clear()
        return result
    }
}
