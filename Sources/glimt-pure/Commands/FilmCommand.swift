import Foundation
import GlimtPure

struct FilmCommand: Command {
    static let name = "film"
    static let summary = "Make the film: one second per day, cut from the original videos"
    static let usage = [
        "film [--from DAY] [--to DAY] --out FILE [options]",
        "film VIDEO|FOLDER... [--ref PHOTO[:FACE]...] --out FILE [options]",
        "film --picks FILE --out FILE [options]",
    ]
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
    struct Options: OptionGroup {
        let out = RequiredTextOption(
            "--out", "FILE", completion: .file, what: "the film to write, .mp4 or .m4v", "Output file, .mp4 or .m4v (required)")
        let overwrite = SharedOptions.overwrite
        let picks = TextOption("--picks", "FILE", completion: .file, "Render the picks saved by 'glimt-pure analyze --json'")
        let days = DayRange()
        let aspect = SharedOptions.aspect
        let size = TextOption("--size", "WxH", "Output size (even numbers); sets the shape too")
        let fps = NumberOption(
            "--fps", "N", default: FilmOptions().fps, range: FilmOptions.frameRates,
            "Output frame rate; clips of other rates are resampled by their timestamps")
        let seconds = SharedOptions.seconds
        let caption = ChoiceOption(
            "--caption", default: FilmOptions().caption,
            "Burn in each day's date, who is in it, the person's age that day (it needs a birthday), the date with either, or no caption")
        let born = TextOption(
            "--born", "DAY",
            "The birthday (YYYY-MM-DD) the age captions count from, over the one stored for the library's person "
                + "('glimt-pure people set NAME --born DAY')")
        let transition = ChoiceOption(
            "--transition", default: FilmOptions().transition, "Between days: a plain cut, or a quick fade through black (picture and sound)")
        let align = ChoiceOption(
            "--align", default: FilmOptions().align,
            "Keep the person's eyes at one place and size in every frame of every day (eyes), or frame each second with one steady crop (none)")
        let mute = FlagOption("--mute", "Leave out the clips' own sound (otherwise each clip's own sound, silence where it has none)")
        let music = ListOption(
            "--music", "FILE", completion: .file,
            "Music under the film (any sound file; repeat to play several in turn): looped or cut, faded, lowered under speech")
        let musicLevel = NumberOption(
            "--music-level", "DB", default: FilmOptions().musicLevel, range: FilmOptions.musicLevels,
            "The music's loudness in dBFS, before it is lowered under speech")
        let quality = NumberOption(
            "--quality", "Q", default: FilmOptions().quality, range: FilmOptions.qualities, "x264 CRF, lower is better and bigger")
        let preset = ChoiceOption(
            "--preset", choices: FilmOptions.presets, default: FilmOptions().preset,
            "x264 speed preset: a slower one spends more time for a smaller film at the same --quality")
        let withoutPerson = SharedOptions.withoutPerson
        let photos = SharedOptions.photos
        let references = ReferenceOptions()
        let analysing = AnalysingOptions()
        let identity = IdentityOptions()
        let recordings = RecordingOptions()
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        let output = try args.value(\.out)
        var film = FilmOptions()
        let aspect = try args.value(\.aspect)
        (film.width, film.height) = aspect.defaultSize
        if let size = args.value(\.size) {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1] else { throw UsageError("--size must be WIDTHxHEIGHT, not '\(size)'") }
            (film.width, film.height) = (w, h)
        }
        film.fps = try args.value(\.fps)
        film.seconds = try args.value(\.seconds)
        film.audio = !args.flag(\.mute)
        film.music = args.all(\.music)
        film.musicLevel = try args.value(\.musicLevel)
        film.quality = try args.value(\.quality)
        film.preset = try args.value(\.preset)
        film.caption = try args.value(\.caption)
        film.transition = try args.value(\.transition)
        film.align = try args.value(\.align)
        if let born = args.value(\.born) {
            guard film.caption.showsAge else { throw UsageError("--born is what the age is counted from: give it with --caption age or date+age") }
            if let why = Person.problem(born: born) { throw UsageError(why) }
            film.born = born
        }
        let (from, to) = try args.value(\.days)
        let job: FilmJob
        do {
            job = try FilmJob(film: film, output: output, fromDay: from, toDay: to, overwrite: args.flag(\.overwrite))
        } catch let e as GlimtError {
            // A film that cannot be made is said before the analysis: a bad size or rate is a
            // usage mistake; an output folder that is missing or read-only a failure.
            guard let path = e.path else { throw UsageError(e.reason) }
            throw GlimtError(e.reason, path: "\(path != output && film.music.contains(path) ? "--music" : "--out") \(path)")
        }

        // An age needs a birthday, said before anything is analysed.
        if film.caption.showsAge {
            let choice = args.value(\.picks) == nil ? try args.value(\.references) : nil
            if let why = job.captionProblem(birthday: try job.birthday(for: choice)) { throw UsageError(why) }
        }

        let source: FilmJob.Source
        if let picksFile = args.value(\.picks) {
            guard args.positionals.isEmpty else { throw UsageError("--picks renders saved picks; give no videos with it") }
            try args.refuse(
                [\.references, \.analysing, \.identity, \.recordings, \.withoutPerson, \.photos],
                because:
                    "has no effect with --picks: the saved picks are rendered as they are (it applies when the film analyses videos or the library's days)"
            )
            source = .picks(picksFile)
        } else if args.positionals.isEmpty {
            try args.refuse(
                [\.analysing],
                because:
                    "applies when videos are analysed ('film VIDEO|FOLDER...', 'analyze', 'scan'); the library's videos were analysed when they were scanned"
            )
            source = .library(try ReferenceOptions.libraryDays(args.group(\.references), rules: job.rules(try rules(args))))
        } else {
            let choice = try args.value(\.references)
            ReferenceOptions.noteIfNoneAreStored(choice, args.group(\.references))
            var options = try args.value(\.analysing)
            options.rules = try rules(args)
            source = .videos(args.positionals, options, choice)
        }
        let analysing = ProgressLine(), rendering = ProgressLine()
        let outcome = try job.run(
            source, analysisProgress: { analysing.update(AnalysisProgressText.line($0)) },
            report: { f in
                analysing.clear()
                Console.err("glimt-pure \(name): \(ShownPath.escaped(f.path)): \(f.reason)")
            },
            renderProgress: { p in
                analysing.clear()
                var s = String(format: "rendering day %d/%d ", p.segment + 1, p.segments) + p.day + String(format: "  %3.0f%%", p.fraction * 100)
                if let left = p.secondsLeft { s += String(format: "  ETA %.0f s", left) }
                rendering.update(s)
            })
        rendering.clear()
        let segments = outcome.segments
        Console.out(
            "wrote \(ShownPath.escaped(job.output)): \(segments.count) day\(segments.count == 1 ? "" : "s"), \(film.width)x\(film.height) at \(film.fps) fps, "
                + String(format: "%.1f s", Double(segments.count * film.framesPerClip) / Double(film.fps)))
        for s in segments { Console.out("  \(s.day)  \(ShownPath.escaped(s.video))  \(SecondText.at(s.start, photo: s.photo))") }
        for (day, why) in outcome.skippedDays.sorted(by: { $0.key < $1.key }) { Console.out("  \(day)  skipped: \(why)") }
        if !outcome.beforeBirth.isEmpty {
            let one = outcome.beforeBirth.count == 1
            Console.notice(
                "glimt-pure film: \(outcome.beforeBirth.count) day\(one ? " is" : "s are") before the birthday, so "
                    + (one ? "its caption says" : "their captions say") + " no age: " + outcome.beforeBirth.joined(separator: ", "))
        }
        if !outcome.datedByModificationTime.isEmpty {
            Console.err(
                "glimt-pure film: warning: dated only by file modification time (a copy's time is the day of the copy): "
                    + outcome.datedByModificationTime.map(ShownPath.escaped).joined(separator: ", "))
        }
        if !outcome.failures.isEmpty {
            Console.err(
                "glimt-pure film: the film was made without \(outcome.failures.count) file\(outcome.failures.count == 1 ? "" : "s") that could not be read (named above)"
            )
        }
        // The film was written: that is success, whatever was skipped on the way.
        return ExitStatus.done
    }

    /// How the film's days are judged (its clip length and shape are the film's own).
    static func rules(_ args: Arguments<Options>) throws -> Judgement.Rules {
        var r = Judgement.Rules()
        r.thresholds = try args.value(\.identity)
        r.withoutPerson = try args.value(\.withoutPerson)
        r.photos = try args.value(\.photos)
        r.windowLength = try args.value(\.seconds)
        r.aspect = try args.value(\.aspect).ratio
        r.recordings = try args.value(\.recordings)
        return r
    }
}
