import Foundation
import GlimtPure

/// Options shared by `analyze` and `film`: references, sampling, thresholds, time zone.
enum AnalysisArguments {
    /// `analyze` calls the sampling rate --fps; `film` keeps --fps for the film's own rate and
    /// calls it --sample-rate.
    static func options(sampleRate: String) -> [OptionSpec] {
        [.value("--ref", repeatable: true), .flag("--ref-library"), .flag("--no-refs"), .value("--library"),
         .value(sampleRate), .value("--side"), .value("--timezone"), .value("--aspect"),
         .value("--match-threshold"), .value("--strong-threshold"), .value("--frames-needed")]
    }

    /// `film` describes --aspect as the film's own shape, so its help leaves out the line here.
    static func help(sampleRate: String, aspect: Bool = true) -> String {
        helpText.replacingOccurrences(of: "  --fps F                ", with: "  " + (sampleRate + " F").padding(toLength: 23, withPad: " ", startingAt: 0))
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { aspect || !$0.hasPrefix("  --aspect") }
            .joined(separator: "\n")
    }

    private static let helpText = """
      --ref PHOTO[:FACE]     A reference photo of the person (repeatable, up to 5; FACE picks one of
                             several faces, numbered as 'glimt-pure faces' shows). Used for this run
                             only. Without --ref, the references stored with 'glimt-pure reference add'
                             are used (--ref-library says so explicitly).
      --no-refs              Ignore stored references: pick the best-looking second with a clear face
      --library DIR          Library folder (default: $XDG_DATA_HOME/glimt or ~/.local/share/glimt)
      --fps F                Frames analysed per second of video (default 8)
      --side N               Long side, in pixels, of analysis frames (default 640; more finds smaller
                             faces in crowds and costs more)
      --aspect A             portrait (default), landscape or square: the shape crops are framed for
      --timezone TZ          Time zone for UTC capture times and file times (default: this machine's),
                             e.g. Europe/Berlin
      --match-threshold C    Cosine from which a face is the person (default 0.45)
      --strong-threshold C   Cosine at which one frame is enough (default 0.57)
      --frames-needed N      Frames at the match threshold needed otherwise (default 2)
    """

    static func analysisOptions(_ args: Arguments, sampleRate: String = "--fps") throws -> AnalysisOptions {
        var o = AnalysisOptions()
        o.sampleRate = try args.double(sampleRate, default: 8, range: 0.5...120)
        o.analysisSide = try args.int("--side", default: 640, range: 96...4096)
        if let a = args.value("--aspect") {
            guard let aspect = Aspect(rawValue: a) else { throw UsageError("--aspect must be portrait, landscape or square, not '\(a)'") }
            o.aspect = aspect.ratio
        }
        if let tz = args.value("--timezone") {
            guard let zone = TimeZone(identifier: tz) else { throw UsageError("unknown time zone '\(tz)' (use a name like Europe/Berlin)") }
            o.timeZone = zone
        }
        o.thresholds = try thresholds(args)
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

    static func references(_ args: Arguments) throws -> References.Choice {
        if args.flag("--no-refs") {
            guard args.all("--ref").isEmpty else { throw UsageError("--no-refs and --ref contradict each other") }
            return .none
        }
        let photos = args.all("--ref")
        return photos.isEmpty ? .stored(library: LibraryLocation.resolve(args.value("--library"))) : .photos(photos)
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
            Console.err("glimt-pure \(command): \(f.path): \(f.reason)")
        })
        progress.clear()
        return result
    }
}

/// One status line on stderr, rewritten in place on a terminal; elsewhere (logs, pipes) only a
/// line when its first word-group changes, so logs stay readable.
final class ProgressLine {
    private var width = 0
    private let terminal = isatty(STDERR_FILENO) == 1
    private var lastHeading = ""

    func update(_ s: String) {
        guard terminal else {
            let heading = s.split(separator: " ").prefix(3).joined(separator: " ")
            if heading != lastHeading {
                lastHeading = heading
                FileHandle.standardError.write((heading + "\n").data(using: .utf8)!)
            }
            return
        }
        let pad = max(0, width - s.count)
        FileHandle.standardError.write(("\r" + s + String(repeating: " ", count: pad)).data(using: .utf8)!)
        width = s.count
    }

    func clear() {
        guard terminal, width > 0 else { return }
        FileHandle.standardError.write(("\r" + String(repeating: " ", count: width) + "\r").data(using: .utf8)!)
        width = 0
    }
}

struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let summary = "Pick the best second of each day from videos, and say why"
    static let help = """
    USAGE: glimt-pure analyze VIDEO|FOLDER... [options]

    Reads the videos (folders are searched for video files), samples frames, finds faces and
    scores every frame: 35 % how good it looks, 20 % sharpness, 45 % a clear face; with
    references that counts 40 % and "is it the person" 60 %. A video contains the person only
    with two frames at the match threshold or one at the strong threshold, and only the
    best-matching face of a frame counts. For each local calendar day it picks the 1-second
    window with the best mean score and a steady crop for the film's shape.

    Prints, per day: the video, start time, score and its parts, the identity evidence, the crop,
    and where the date came from. A file that cannot be read gets a one-line error and the run
    goes on with the others.

    OPTIONS:
      --json                 Print the full result as JSON (picks, skipped days, every video's
                             frames); 'glimt-pure film --picks FILE' renders from it
    \(AnalysisArguments.help(sampleRate: "--fps"))
      -h, --help             Show this help
    """
    static let options: [OptionSpec] = [.flag("--json")] + AnalysisArguments.options(sampleRate: "--fps")

    static func run(_ args: Arguments) throws -> Int32 {
        try args.requirePositionals("at least one VIDEO or FOLDER")
        let result = try AnalysisArguments.run(args.positionals, args, command: name, options: try AnalysisArguments.analysisOptions(args))
        if args.flag("--json") {
            try Console.json(result)
        } else {
            printSummary(result)
        }
        return result.failures.isEmpty ? 0 : 1
    }

    static func printSummary(_ r: AnalysisRun.Result) {
        Console.out("\(r.videos.count) video\(r.videos.count == 1 ? "" : "s") analysed, \(r.picks.count) day\(r.picks.count == 1 ? "" : "s") picked"
                    + (r.references > 0 ? ", \(r.references) reference\(r.references == 1 ? "" : "s")" : ", no references"))
        for p in r.picks {
            Console.out("\(p.day)  \(p.video)  at \(String(format: "%.2f", p.start)) s")
            var parts = String(format: "  score %.3f (looks %.2f, sharp %.2f, face %.2f", p.score, p.parts.aesthetics, p.parts.sharpness, p.parts.face)
            if let id = p.parts.identity { parts += String(format: ", person %.2f", id) }
            Console.out(parts + ")")
            if let e = p.identity {
                Console.out(String(format: "  person: %d frames >= match, %d >= strong, best cosine %.3f", e.framesAtMatch, e.framesAtStrong, e.bestCosine))
            }
            Console.out(String(format: "  crop x %.0f y %.0f  %.0fx%.0f  zoom %.2fx", p.crop.x, p.crop.y, p.crop.width, p.crop.height, p.zoom)
                        + "  date from \(p.dateSource.rawValue)\(p.captureTime.map { " (\($0))" } ?? "")  \(p.candidates) video\(p.candidates == 1 ? "" : "s") that day")
        }
        for (day, why) in r.skippedDays.sorted(by: { $0.key < $1.key }) { Console.out("\(day)  no pick: \(why)") }
    }
}
