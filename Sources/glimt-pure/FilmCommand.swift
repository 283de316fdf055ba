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
    static let options: [OptionSpec] = [
        .value("--out", "FILE", completion: .file, "Output file, .mp4 or .m4v (default: glimt-film.mp4)"),
        CommonOptions.overwrite,
        .value("--picks", "FILE", completion: .file, "Render the picks saved by 'glimt-pure analyze --json'"),
        CommonOptions.from, CommonOptions.to,
        .value("--aspect", "A", completion: .choices(Aspect.allCases.map(\.rawValue)),
               "portrait (default, 1080x1920), landscape (1920x1080) or square (1080x1080)"),
        .value("--size", "WxH", "Output size (even numbers); sets the shape too"),
        .value("--fps", "N", "Output frame rate (default 30); clips of other rates are resampled by their timestamps"),
        .value("--seconds", "S", "Length of each day's clip (default 1.0)"),
        .value("--caption", "date|none", completion: .choices(["date", "none"]), "Burn in each day's date (default none)"),
        .flag("--mute", "No sound (default: each clip's own sound, silence where it has none)"),
        .value("--quality", "Q", "x264 CRF, 1-51, lower is better and bigger (default 20)"),
        AnalysisArguments.withoutChild,
    ] + AnalysisArguments.references + AnalysisArguments.sampling + [AnalysisArguments.fullPass, AnalysisArguments.everyFace] + AnalysisArguments.identity + AnalysisArguments.recordings

    static func run(_ args: Arguments) throws -> Int32 {
        var film = FilmOptions()
        var aspect = Aspect.portrait
        if let a = args.value("--aspect") {
            guard let parsed = Aspect(rawValue: a) else { throw UsageError("--aspect must be portrait, landscape or square, not '\(a)'") }
            aspect = parsed
        }
        (film.width, film.height) = aspect.defaultSize
        if let size = args.value("--size") {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1] else { throw UsageError("--size must be WIDTHxHEIGHT, not '\(size)'") }
            (film.width, film.height) = (w, h)
        }
        if let fps = args.value("--fps") {
            guard let value = Int(fps) else { throw UsageError("--fps must be a whole number, not '\(fps)'") }
            film.fps = value
        }
        film.seconds = try args.double("--seconds", default: 1, range: 0.1...60)
        film.audio = !args.flag("--mute")
        film.quality = try args.int("--quality", default: 20, range: 1...51)
        if let c = args.value("--caption") {
            guard let caption = FilmOptions.Caption(rawValue: c) else { throw UsageError("--caption must be date or none, not '\(c)'") }
            film.caption = caption
        }
        let (from, to) = try args.dayRange()
        let job: FilmJob
        do {
            job = try FilmJob(film: film, output: args.value("--out") ?? "glimt-film.mp4", fromDay: from, toDay: to,
                              overwrite: args.flag("--overwrite"))
        } catch let e as GlimtError {
            // A film that cannot be made is said before the analysis: a bad size, rate or day is a
            // usage mistake; an output folder that is missing or read-only a failure.
            guard let path = e.path else { throw UsageError(e.reason) }
            throw GlimtError(e.reason, path: "--out \(path)")
        }

        let source: FilmJob.Source
        if let picksFile = args.value("--picks") {
            guard args.positionals.isEmpty else { throw UsageError("--picks renders saved picks; give no videos with it") }
            source = .picks(picksFile)
        } else if args.positionals.isEmpty {
            let options = job.analysisOptions(try AnalysisArguments.analysisOptions(args))
            let references = try References.resolve(try AnalysisArguments.references(args))
            source = .library(try LibraryDays(library: AnalysisArguments.library(args), options: options, references: references))
        } else {
            source = .videos(args.positionals, try AnalysisArguments.analysisOptions(args), try AnalysisArguments.references(args))
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
        Console.out("wrote \(job.output): \(segments.count) day\(segments.count == 1 ? "" : "s"), \(film.width)x\(film.height) at \(film.fps) fps, "
                    + String(format: "%.1f s", Double(segments.count * film.framesPerClip) / Double(film.fps)))
        for s in segments { Console.out("  \(s.day)  \(s.video)  at \(String(format: "%.2f", s.start)) s") }
        for (day, why) in outcome.skippedDays.sorted(by: { $0.key < $1.key }) { Console.out("  \(day)  skipped: \(why)") }
        if !outcome.datedByModificationTime.isEmpty {
            Console.err("glimt-pure film: warning: dated only by file modification time (a copy's time is the day of the copy): "
                        + outcome.datedByModificationTime.joined(separator: ", "))
        }
        if !outcome.failures.isEmpty {
            Console.err("glimt-pure film: the film was made without \(outcome.failures.count) file\(outcome.failures.count == 1 ? "" : "s") that could not be read (named above)")
        }
        // The film was written: that is success, whatever was skipped on the way.
        return ExitStatus.done
    }
}
