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
        second that can be pinned is said). A second that does not show the person (their face in
        none of its samples) is refused in one line saying whom it shows; --force pins it anyway,
        and the film's caption then leaves their name out. A pin on an excluded day includes the
        day again. --auto removes the pin. A pin is one person's (--person; with one person in the
        library it may be left out): each child's film has its own. --apply takes every choice
        saved by the page of 'glimt-pure review' (pins, excluded days, days back to automatic), all
        of them or, killed, none; an entry that cannot be applied is one line, and the others are.
        """
    struct Options: OptionGroup {
        let video = TextOption("--video", "FILE", completion: .file, "The video to take the second from")
        let at = OptionalNumberOption<Double>("--at", "SECONDS", range: 0...1e7, "Where the second starts in it")
        let auto = FlagOption("--auto", "Back to automatic choice for the day")
        let apply = TextOption("--apply", "FILE", completion: .file, "Apply the choices saved by the review page (glimt-choices.json)")
        let force = FlagOption(
            "--force", "Pin a second that does not show the person anyway (for --apply: every such choice); the film's caption leaves their name out")
        let choices = PersonOptions()
    }
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        if let file = args.value(\.apply) {
            try args.requirePositionals("no DAY with --apply", min: 0, max: 0)
            guard !args.has(\.video), !args.has(\.at), !args.flag(\.auto) else { throw UsageError("--apply takes no --video, --at or --auto") }
            let person = args.value(\.choices.person)
            let outcome: ChoicesFile.Outcome
            do {
                outcome = try ChoicesFile.apply(file, library: args.value(\.choices.library), person: person, force: args.flag(\.force))
            } catch let e as People.UnknownPerson where person == nil {
                // The name is the file's, not the command line's: a failure, not a usage mistake.
                throw GlimtError(e.description)
            }
            for p in outcome.problems + outcome.forced { Console.err("glimt-pure pick: \(p)") }
            let brought = outcome.pinnedOnExcludedDays > 0 ? " (\(outcome.pinnedOnExcludedDays) on a day that was excluded, included again)" : ""
            Console.out(
                "applied \(outcome.applied) choice\(outcome.applied == 1 ? "" : "s")\(outcome.person.map { " of \($0)" } ?? ""): \(outcome.pinned) pinned\(brought), "
                    + "\(outcome.excluded) excluded, \(outcome.included) brought back, \(outcome.automatic) back to automatic"
                    + (outcome.problems.isEmpty ? "" : "; \(outcome.problems.count) left out (named above)"))
            return outcome.problems.isEmpty ? ExitStatus.done : ExitStatus.failed
        }
        try args.requirePositionals("one DAY", min: 1, max: 1)
        let day = try DayOption.day(args.positionals[0])
        let choices = try PersonOptions.choices(args.group(\.choices))
        if args.flag(\.auto) {
            guard !args.has(\.video), !args.has(\.at), !args.flag(\.force) else { throw UsageError("--auto takes no --video, --at or --force") }
            try choices.automatic(day: day)
            Console.out("\(day): automatic choice")
            return ExitStatus.done
        }
        guard let video = args.value(\.video) else { throw UsageError("pick needs --video FILE and --at SECONDS (a photo takes no --at), or --auto") }
        let at = try args.value(\.at)
        let pinned = try choices.pin(day: day, file: video, start: at, force: args.flag(\.force))
        Console.out(
            "\(day): pinned \(ShownPath.escaped(video)) \(SecondText.at(at ?? 0, photo: pinned.photo))"
                + (pinned.includedAgain ? "; the day was excluded, and is included again" : "")
                + (pinned.notShown.map { "; forced: \($0)" } ?? ""))
        return ExitStatus.done
    }
}
