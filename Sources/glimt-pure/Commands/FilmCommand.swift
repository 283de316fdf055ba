import Foundation
import GlimtPure

struct FilmCommand: Command {
    static let name = "film"
    static let summary = "Make the film: one second per day, cut from the original videos"
    static let usage = ["film [--from DAY] [--to DAY] --out FILE [options]",
                        "film VIDEO|FOLDER... [--ref PHOTO[:FACE]...] --out FILE [options]",
                        "film --picks FILE --out FILE [options]"]
    static let about = """
    Renders one second per day, in day order, into an MP4 (H.264 + AAC) that every player plays.
    Clips are cut from the original videos, frame-accurately, turned upright, tone-mapped to SDR
    when HDR, cropped around the person (or the most prominent face) and scaled. Days without a
    pick are skipped and listed at the end. The film appears under its name only when complete,
    and an existing file is only replaced with -y.

    With no videos, the days come from the library ('glimt-pure scan'), with its pins and
    exclusions, and nothing is decoded but the clips. With videos, they are analysed for this
    film only (as 'glimt-pure analyze' does). With --picks, the picks of a saved
    'glimt-pure analyze --json' result are rendered: edit a pick's "start" or "crop" there and
    render again in seconds.
    """
    static let out = OptionSpec.value("--out", "FILE", completion: .file, "Output file, .mp4 or .m4v (required)")
    static let picks = OptionSpec.value("--picks", "FILE", completion: .file, "Render the picks saved by 'glimt-pure analyze --json'")
    static let size = OptionSpec.value("--size", "WxH", "Output size (even numbers); sets the shape too")
    static let fps = NumberOption("--fps", "N", default: FilmOptions().fps, range: FilmOptions.frameRates,
                                  "Output frame rate; clips of other rates are resampled by their timestamps")
    static let caption = ChoiceOption("--caption", default: FilmOptions().caption, "Burn in each day's date, or no caption")
    static let mute = OptionSpec.flag("--mute", "No sound (otherwise each clip's own sound, silence where it has none)")
    static let quality = NumberOption("--quality", "Q", default: FilmOptions().quality, range: FilmOptions.qualities,
                                      "x264 CRF, lower is better and bigger")
    static let filmOptions: [OptionSpec] = [out, CommonOptions.overwrite, picks, CommonOptions.from, CommonOptions.to,
                                            AnalysisArguments.aspect.spec, size, fps.spec, AnalysisArguments.seconds.spec, caption.spec, mute, quality.spec]
    static let judgingOptions: [OptionSpec] = [AnalysisArguments.withoutPerson.spec] + AnalysisArguments.references
    static let options: [OptionSpec] = filmOptions + judgingOptions + AnalysisArguments.analysing + AnalysisArguments.identity + AnalysisArguments.recordings

    static func run(_ args: Arguments) throws -> Int32 {
        guard let output = args.value(out.name) else { throw UsageError("'film' needs --out FILE (the film to write, .mp4 or .m4v)") }
        var film = FilmOptions()
        let aspect = try AnalysisArguments.aspect.value(args)
        (film.width, film.height) = aspect.defaultSize
        if let size = args.value(size.name) {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1] else { throw UsageError("--size must be WIDTHxHEIGHT, not '\(size)'") }
            (film.width, film.height) = (w, h)
        }
        film.fps = try fps.value(args)
        film.seconds = try AnalysisArguments.seconds.value(args)
        film.audio = !args.has(mute)
        film.quality = try quality.value(args)
        film.caption = try caption.value(args)
        let (from, to) = try args.dayRange()
        let job: FilmJob
        do {
            job = try FilmJob(film: film, output: output, fromDay: from, toDay: to, overwrite: args.has(CommonOptions.overwrite))
        } catch let e as GlimtError {
            // A film that cannot be made is said before the analysis: a bad size, rate or day is a
            // usage mistake; an output folder that is missing or read-only a failure.
            guard let path = e.path else { throw UsageError(e.reason) }
            throw GlimtError(e.reason, path: "--out \(path)")
        }

        let source: FilmJob.Source
        if let picksFile = args.value(picks.name) {
            guard args.positionals.isEmpty else { throw UsageError("--picks renders saved picks; give no videos with it") }
            try args.refuse(AnalysisArguments.references + AnalysisArguments.analysing + AnalysisArguments.identity + AnalysisArguments.recordings
                            + [AnalysisArguments.withoutPerson.spec],
                            because: "has no effect with --picks: the saved picks are rendered as they are (it applies when the film analyses videos or the library's days)")
            source = .picks(picksFile)
        } else if args.positionals.isEmpty {
            try args.refuse(AnalysisArguments.analysing,
                            because: "applies when videos are analysed ('film VIDEO|FOLDER...', 'analyze', 'scan'); the library's videos were analysed when they were scanned")
            let days = try LibraryDays(library: AnalysisArguments.library(args), rules: job.rules(try AnalysisArguments.rules(args)),
                                       lookFor: try References.resolve(try AnalysisArguments.references(args)))
            AnalysisArguments.noteIfNoOneIsLookedFor(days.lookFor, args)
            source = .library(days)
        } else {
            let choice = try AnalysisArguments.references(args)
            if case .stored(let library, nil) = choice, let stored = try? ReferenceStore(library: library).list(), stored.isEmpty {
                AnalysisArguments.noteIfNoOneIsLookedFor(.noOne, args)
            }
            source = .videos(args.positionals, try AnalysisArguments.analysisOptions(args), choice)
        }
        let analysing = ProgressLine(), rendering = ProgressLine()
        let outcome = try job.run(source, analysisProgress: { analysing.update(AnalysisArguments.describe($0)) }, report: { f in
            analysing.clear()
            Console.err("glimt-pure \(name): \(ShownPath.escaped(f.path)): \(f.reason)")
        }, renderProgress: { p in
            analysing.clear()
            var s = String(format: "rendering day %d/%d ", p.segment + 1, p.segments) + p.day + String(format: "  %3.0f%%", p.fraction * 100)
            if let left = p.secondsLeft { s += String(format: "  ETA %.0f s", left) }
            rendering.update(s)
        })
        rendering.clear()
        let segments = outcome.segments
        Console.out("wrote \(ShownPath.escaped(job.output)): \(segments.count) day\(segments.count == 1 ? "" : "s"), \(film.width)x\(film.height) at \(film.fps) fps, "
                    + String(format: "%.1f s", Double(segments.count * film.framesPerClip) / Double(film.fps)))
        for s in segments { Console.out("  \(s.day)  \(ShownPath.escaped(s.video))  at \(String(format: "%.2f", s.start)) s") }
        for (day, why) in outcome.skippedDays.sorted(by: { $0.key < $1.key }) { Console.out("  \(day)  skipped: \(why)") }
        if !outcome.datedByModificationTime.isEmpty {
            Console.err("glimt-pure film: warning: dated only by file modification time (a copy's time is the day of the copy): "
                        + outcome.datedByModificationTime.map(ShownPath.escaped).joined(separator: ", "))
        }
        if !outcome.failures.isEmpty {
            Console.err("glimt-pure film: the film was made without \(outcome.failures.count) file\(outcome.failures.count == 1 ? "" : "s") that could not be read (named above)")
        }
        // The film was written: that is success, whatever was skipped on the way.
        return ExitStatus.done
    }
}
