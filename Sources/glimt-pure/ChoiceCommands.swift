import Foundation
import GlimtPure

struct PickCommand: Command {
    static let name = "pick"
    static let summary = "Pin a day's second (a video and a time), or give the day back to automatic choice"
    static let usage = ["pick DAY --video FILE --at SECONDS", "pick DAY --auto", "pick --apply glimt-choices.json"]
    static let about = """
    Pins the second of DAY to FILE at SECONDS: every later 'glimt-pure days' and 'glimt-pure film'
    use it, whatever the scores, and it survives every rescan and a move of the file. FILE must be
    a scanned video of that day, with a frame of its analysis in that second (else the latest
    second that can be pinned is said). A pin on an excluded day includes the day again. --auto
    removes the pin. A pin is one person's (--person; with one person in the library it may be
    left out): each child's film has its own. --apply takes every choice saved by the page of
    'glimt-pure review' (pins, excluded days, days back to automatic), all of them or, killed,
    none; an entry that cannot be applied is one line, and the others are.
    """
    static let options: [OptionSpec] = [
        .value("--video", "FILE", completion: .file, "The video to take the second from"),
        .value("--at", "SECONDS", "Where the second starts in it"),
        .flag("--auto", "Back to automatic choice for the day"),
        .value("--apply", "FILE", completion: .file, "Apply the choices saved by the review page (glimt-choices.json)"),
        CommonOptions.person,
        CommonOptions.library,
    ]
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments) throws -> Int32 {
        if let file = args.value("--apply") {
            try args.requirePositionals("no DAY with --apply", min: 0, max: 0)
            guard args.value("--video") == nil, args.value("--at") == nil, !args.flag("--auto") else { throw UsageError("--apply takes no --video, --at or --auto") }
            let outcome = try ChoicesFile.apply(file, library: AnalysisArguments.library(args), person: args.value(CommonOptions.person.name))
            for p in outcome.problems { Console.err("glimt-pure pick: \(p)") }
            let brought = outcome.pinnedOnExcludedDays > 0 ? " (\(outcome.pinnedOnExcludedDays) on a day that was excluded, included again)" : ""
            Console.out("applied \(outcome.applied) choice\(outcome.applied == 1 ? "" : "s")\(outcome.person.map { " of \($0)" } ?? ""): \(outcome.pinned) pinned\(brought), "
                        + "\(outcome.excluded) excluded, \(outcome.included) brought back, \(outcome.automatic) back to automatic"
                        + (outcome.problems.isEmpty ? "" : "; \(outcome.problems.count) left out (named above)"))
            return outcome.problems.isEmpty ? ExitStatus.done : ExitStatus.failed
        }
        try args.requirePositionals("one DAY", min: 1, max: 1)
        let day = try Arguments.day(args.positionals[0])
        let choices = try AnalysisArguments.choices(args)
        if args.flag("--auto") {
            guard args.value("--video") == nil, args.value("--at") == nil else { throw UsageError("--auto takes no --video or --at") }
            try choices.automatic(day: day)
            Console.out("\(day): automatic choice")
            return ExitStatus.done
        }
        guard let video = args.value("--video"), let at = try args.number("--at", range: 0...1e7) else {
            throw UsageError("pick needs --video FILE and --at SECONDS (or --auto)")
        }
        let wasExcluded = try choices.pin(day: day, file: video, start: at)
        Console.out("\(day): pinned \(ShownPath.escaped(video)) at \(String(format: "%.2f", at)) s" + (wasExcluded ? "; the day was excluded, and is included again" : ""))
        return ExitStatus.done
    }
}

struct ExcludeCommand: Command {
    static let name = "exclude"
    static let summary = "Leave a day or a video out of every film"
    static let usage = ["exclude DAY|FILE..."]
    static let about = """
    A DAY (YYYY-MM-DD) is left out of the film of one person (--person; with one person in the
    library it may be left out); a FILE (a scanned video) never competes for its day's second, in
    anyone's film. Kept by day and by content: rescans and moved files keep it. 'glimt-pure
    include' undoes it.
    """
    static let options: [OptionSpec] = [CommonOptions.person, CommonOptions.library]

    static func run(_ args: Arguments) throws -> Int32 { try ChoiceRun.set(args, excluded: true) }
}

struct IncludeCommand: Command {
    static let name = "include"
    static let summary = "Bring back an excluded day or video"
    static let usage = ["include DAY|FILE..."]
    static let about = "Undoes 'glimt-pure exclude' for each DAY (YYYY-MM-DD) or FILE."
    static let options: [OptionSpec] = [CommonOptions.person, CommonOptions.library]

    static func run(_ args: Arguments) throws -> Int32 { try ChoiceRun.set(args, excluded: false) }
}

enum ChoiceRun {
    static func set(_ args: Arguments, excluded: Bool) throws -> Int32 {
        try args.requirePositionals("a DAY or a FILE")
        let choices = try AnalysisArguments.choices(args)
        var failed = false
        for target in args.positionals {
            do {
                let what = try choices.set(target, excluded: excluded)
                Console.out("\(excluded ? "excluded" : "included") \(ShownPath.escaped(what))")
            } catch {
                Console.err("glimt-pure \(excluded ? "exclude" : "include"): \(error)")
                failed = true
            }
        }
        return failed ? ExitStatus.failed : ExitStatus.done
    }
}
