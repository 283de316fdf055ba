import Foundation
import GlimtPure

struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let summary = "Pick the best second of each day from videos, and say why"
    static let usage = ["analyze VIDEO|FOLDER... [options]"]
    static let about = """
        Reads the videos (folders are searched for video files), samples frames, finds faces and
        scores every frame: 35 % how good it looks, 20 % sharpness, 45 % a clear face; with
        references that counts 40 % and "is it the person" 60 %. A video contains the person only
        with two frames at the match threshold or one at the strong threshold, and only the
        best-matching face of a frame counts. For each local calendar day it picks the 1-second
        window with the best mean score and a steady crop for the film's shape.

        Prints, per day: the video, start time, score and its parts, the identity evidence, the crop,
        and where the date came from. A file that cannot be read gets a one-line error and the run
        goes on with the others. Nothing is stored: 'glimt-pure scan' keeps results in the library.
        """
    struct Options: OptionGroup {
        let json = FlagOption(
            "--json", "Print the full result as JSON (picks, skipped days, every video's frames); 'glimt-pure film --picks FILE' renders from it")
        let references = ReferenceOptions()
        let analysing = AnalysingOptions()
        let aspect = SharedOptions.aspect
        let identity = IdentityOptions()
        let recordings = RecordingOptions()
        let photos = SharedOptions.photos
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("at least one VIDEO or FOLDER")
        var options = try args.value(\.analysing)
        options.rules.thresholds = try args.value(\.identity)
        options.rules.aspect = try args.value(\.aspect).ratio
        options.rules.recordings = try args.value(\.recordings)
        options.rules.photos = try args.value(\.photos)
        let result = try analyse(args.positionals, options: options, args)
        guard !result.videos.isEmpty || !result.failures.isEmpty || !result.skipped.isEmpty else {
            throw GlimtError("no videos or photos found in \(args.positionals.map(ShownPath.escaped).joined(separator: ", "))")
        }
        if args.flag(\.json) {
            try Console.json(result)
        } else {
            printSummary(result)
        }
        return result.failures.isEmpty ? ExitStatus.done : ExitStatus.failed
    }

    /// Runs the analysis with a progress line on stderr and one line per bad file.
    static func analyse(_ inputs: [String], options: AnalysisOptions, _ args: Arguments<Options>) throws -> AnalysisRun.Result {
        let progress = ProgressLine()
        let choice = try args.value(\.references)
        ReferenceOptions.noteIfNoneAreStored(choice, args.group(\.references))
        let result = try AnalysisRun.run(
            inputs: inputs, options: options, references: choice,
            progress: { p in
                progress.update(AnalysisProgressText.line(p))
            },
            report: { f in
                progress.clear()
                Console.err("glimt-pure \(name): \(ShownPath.escaped(f.path)): \(f.reason)")
            })
        progress.clear()
        return result
    }

    static func printSummary(_ r: AnalysisRun.Result) {
        Console.out(
            "\(DayPick.counted(r.videos.map(\.recording.kind.isPhoto))) analysed, \(r.picks.count) day\(r.picks.count == 1 ? "" : "s") picked"
                + (r.references > 0 ? ", \(r.references) reference\(r.references == 1 ? "" : "s")" : ", no references"))
        for p in r.picks {
            Console.out("\(p.day)  \(ShownPath.escaped(p.video))  \(SecondText.at(p.start, photo: p.photo))")
            var parts = String(
                format: "  score %.3f (looks %.2f, sharp %.2f, face %.2f", p.score, p.parts.aesthetics, p.parts.sharpness, p.parts.face)
            if let id = p.parts.identity { parts += String(format: ", person %.2f", id) }
            Console.out(parts + ")")
            if let e = p.identity {
                Console.out(
                    String(format: "  person: %d frames >= match, %d >= strong, best cosine %.3f", e.framesAtMatch, e.framesAtStrong, e.bestCosine))
            }
            Console.out(
                String(format: "  crop x %.0f y %.0f  %.0fx%.0f  zoom %.2fx", p.crop.x, p.crop.y, p.crop.width, p.crop.height, p.zoom)
                    + "  date from \(p.dateSource.rawValue)\(p.captureTime.map { " (\($0))" } ?? "")  \(p.candidates) candidate\(p.candidates == 1 ? "" : "s") that day"
            )
            MomentLines.print(flaws: p.flaws, passedOver: p.passedOver, indent: 2)
        }
        for (day, why) in r.skippedDays.sorted(by: { $0.key < $1.key }) { Console.out("\(day)  no pick: \(why)") }
        for v in r.videos { if let why = v.setAside { Console.out("set aside: \(ShownPath.escaped(v.path)): \(why)") } }
    }
}
