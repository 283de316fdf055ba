import Foundation
import GlimtPure

/// Options shared by the commands that analyse or judge videos, in groups. Each default is read
/// from the type the value goes into.
enum AnalysisArguments {
    static let ref = OptionSpec.value("--ref", "PHOTO[:FACE]", repeatable: true, completion: .file,
                                      "A reference photo of the person (up to \(ReferenceStore.maxReferences); FACE picks one of several faces, numbered as 'glimt-pure faces' shows). Used for this run only. Without --ref, the references stored with 'glimt-pure reference add' are used")
    static let noRefs = OptionSpec.flag("--no-refs", "Ignore stored references: pick the best-looking second with a clear face")
    static let everyone = OptionSpec.flag("--everyone", "Every person of the library together: each day the second with the most of them in it (ties: the better score)")
    static let references: [OptionSpec] = [CommonOptions.person, everyone, ref, noRefs, CommonOptions.library]

    static let sampleRate = NumberOption("--sample-rate", "F", default: AnalysisOptions().sampleRate, range: AnalysisOptions.sampleRates,
                                         "Frames analysed per second of video")
    static let side = NumberOption("--side", "N", default: AnalysisOptions().analysisSide, range: AnalysisOptions.analysisSides,
                                   "Long side, in pixels, of analysis frames (more finds smaller faces in crowds and costs more)")
    static let timeZone = OptionSpec.value("--timezone", "TZ", default: "this machine's",
                                           "Time zone for UTC capture times and file times, e.g. Europe/Berlin")
    static let sampling: [OptionSpec] = [sampleRate.spec, side.spec, timeZone]

    /// Only for commands that analyse for one set of references (the library samples everything).
    static let fullPass = OptionSpec.flag("--full-pass", "Sample every second of long videos at the full rate, instead of looking at their keyframes first and sampling fully only around the best of them (slower, the same picks on the test clips)")

    /// Only for commands that analyse for one set of references (the library embeds every face).
    static let everyFace = OptionSpec.flag("--every-face", "Embed every face of every sampled frame. By default, with references, a face that stays put and looks the same is embedded every sixth frame, the frames between borrowing its embedding while it is clearly the person or clearly not (faster, the same picks on the test clips)")

    /// The library's: without references, a followed face borrows on its looks alone.
    static let libraryEveryFace = OptionSpec.flag("--every-face", "Embed every face of every sampled frame. By default a face that stays put and looks the same is embedded every sixth frame, the frames between borrowing its embedding (about half the CPU; a later reference can judge a borrowed face near a threshold differently, see docs/library.md). A scan with it analyses again the videos scanned without")

    /// The library's: a long video's look is for anyone a later reference could show.
    static let libraryFullPass = OptionSpec.flag("--full-pass", "Sample every second of long videos at the full rate. By default a video of \(Int(Refinement.anyoneFrom)) s or more is looked at by its keyframes first and sampled fully only around the keyframes where someone seen there, or no one, has their best moment (a later reference's second can then be one a full pass ranks a little lower, see docs/library.md). A scan with it analyses again the videos looked at")

    /// What only an analysis of videos takes: the library's videos were analysed when scanned.
    static let analysing: [OptionSpec] = sampling + [fullPass, everyFace]

    static let match = NumberOption("--match-threshold", "C", default: Identity.Thresholds.standard.match, range: -1...1,
                                    "Cosine from which a face is the person")
    static let strong = NumberOption("--strong-threshold", "C", default: Identity.Thresholds.standard.strong, range: -1...1,
                                     "Cosine at which one frame is enough")
    static let framesNeeded = NumberOption("--frames-needed", "N", default: Identity.Thresholds.standard.framesNeeded, range: 1...1000,
                                           "Frames at the match threshold needed otherwise")
    static let identity: [OptionSpec] = [match.spec, strong.spec, framesNeeded.spec]

    /// Kinds of recording set aside by default (see `Recording` in docs/inputs.md).
    static let livePhotos = OptionSpec.flag("--live-photos", "Let Live Photos' movies (the 1.5-3 s clip beside an iPhone photo) compete for their days; set aside by default")
    static let screenRecordings = OptionSpec.flag("--screen-recordings", "Let screen recordings compete for their days; set aside by default")
    static let recordings: [OptionSpec] = [livePhotos, screenRecordings]

    static let aspect = ChoiceOption("--aspect", default: Aspect.standard,
                                     "The film's shape (portrait 1080x1920, landscape 1920x1080, square 1080x1080): crops are framed for it")
    static let seconds = NumberOption("--seconds", "S", default: ClipLength.standard, range: ClipLength.allowed, "Length of each day's clip")
    static let withoutPerson = ChoiceOption("--without-person", default: Judgement.Rules().withoutPerson,
                                            "A day none of whose videos shows the person: skip it, or include its best second anyway, marked as without the person")

    /// How the days of the library are judged ('days', 'show', 'calendar').
    static let judging: [OptionSpec] = [withoutPerson.spec, seconds.spec, aspect.spec] + references + identity + recordings

    static func analysisOptions(_ args: Arguments) throws -> AnalysisOptions {
        var o = AnalysisOptions()
        o.sampleRate = try sampleRate.value(args)
        o.analysisSide = try side.value(args)
        if let tz = args.value(timeZone.name) {
            guard let zone = TimeZone(identifier: tz) else { throw UsageError("unknown time zone '\(tz)' (use a name like Europe/Berlin)") }
            o.timeZone = zone
        } else if let problem = MachineTimeZone.problem() {
            Console.err("glimt-pure \(args.command): \(problem)")
        }
        o.rules = try rules(args)
        o.coarseToFine = !args.has(fullPass)
        o.followFaces = !args.has(everyFace)
        return o
    }

    /// The judging rules; options a command does not take keep their standard values.
    static func rules(_ args: Arguments) throws -> Judgement.Rules {
        var r = Judgement.Rules()
        r.thresholds = Identity.Thresholds(match: try match.value(args), strong: try strong.value(args), framesNeeded: try framesNeeded.value(args))
        r.withoutPerson = try withoutPerson.value(args)
        r.windowLength = try seconds.value(args)
        r.aspect = try aspect.value(args).ratio
        r.recordings = RecordingChoice(livePhotos: args.has(livePhotos), screenRecordings: args.has(screenRecordings))
        return r
    }

    static func library(_ args: Arguments) throws -> URL { try LibraryLocation.resolve(args.value(CommonOptions.library.name)) }

    /// The choices (pins, excluded days) of the person --person names, or of the library's only
    /// person, or of no one.
    static func choices(_ args: Arguments) throws -> LibraryChoices {
        let people = try ReferenceStore(library: library(args)).people()
        let person = try People.choose(args.value(CommonOptions.person.name), in: people)
        return try LibraryChoices(library: library(args), person: person?.id ?? LibraryStore.noOne)
    }

    static func references(_ args: Arguments) throws -> References.Choice {
        let person = args.value(CommonOptions.person.name)
        if args.has(noRefs) {
            guard args.all(ref.name).isEmpty else { throw UsageError("--no-refs and --ref contradict each other") }
            guard person == nil else { throw UsageError("--no-refs and --person contradict each other") }
            return .none
        }
        let photos = args.all(ref.name)
        if args.has(everyone) {
            guard person == nil, photos.isEmpty else { throw UsageError("--everyone is every person of the library: give it without --person or --ref") }
            return .everyone(library: try library(args))
        }
        if !photos.isEmpty, let person { throw UsageError("--ref gives this run's references, --person names the library's '\(person)': give one of them") }
        return photos.isEmpty ? .stored(library: try library(args), person: person) : .photos(photos)
    }

    /// Without references the best-looking face wins, whoever it is: said once, when the run
    /// has got as far as judging.
    static func noteIfNoOneIsLookedFor(_ lookFor: LookFor, _ args: Arguments) {
        guard lookFor.judged == nil, !lookFor.everyone, !args.has(noRefs) else { return }
        Console.notice("glimt-pure \(args.command): no reference photo, so no one is looked for: each day's second is the best-looking one with a clear face, "
                       + "whoever it shows (add one: glimt-pure reference add PHOTO, or --ref PHOTO; --no-refs says this is what you want)")
    }

    /// The library's days judged by the command's options, with the references they name.
    static func days(_ args: Arguments) throws -> LibraryDays {
        let days = try LibraryDays(library: library(args), rules: try rules(args), lookFor: try References.resolve(try references(args)))
        noteIfNoOneIsLookedFor(days.lookFor, args)
        return days
    }

    static func describe(_ p: AnalysisProgress) -> String {
        String(format: "analysing %d/%d ", p.videoIndex + 1, p.videoCount) + "\(ShownPath.escaped(URL(fileURLWithPath: p.path).lastPathComponent)) "
            + String(format: "%.1f/%.1f s", p.time, p.duration)
    }

    /// Runs the analysis with a progress line on stderr and one line per bad file.
    static func run(_ inputs: [String], _ args: Arguments, command: String, options: AnalysisOptions) throws -> AnalysisRun.Result {
        let progress = ProgressLine()
        let choice = try references(args)
        if case .stored(let library, nil) = choice, let stored = try? ReferenceStore(library: library).list(), stored.isEmpty {
            noteIfNoOneIsLookedFor(.noOne, args)
        }
        let result = try AnalysisRun.run(inputs: inputs, options: options, references: choice, progress: { p in
            progress.update(describe(p))
        }, report: { f in
            progress.clear()
            Console.err("glimt-pure \(command): \(ShownPath.escaped(f.path)): \(f.reason)")
        })
        progress.clear()
        return result
    }
}
