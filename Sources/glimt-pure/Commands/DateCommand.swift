import Foundation
import GlimtPure

struct DateCommand: Command {
    static let name = "date"
    static let summary = "Give a scanned video the day it was really taken, or give it back its own"
    static let usage = ["date set FILE DAY[THH:MM]", "date clear FILE"]
    static let about = """
        A video copied from elsewhere often has no date of its own and is dated by its file's
        modification time: the day of the copy ('glimt-pure days' marks such days). 'set' files FILE
        under DAY (YYYY-MM-DD, optionally with a time, 2024-05-04T17:30) in every later 'days', sheet
        and film, whatever its metadata says; it is kept by the video's content, so rescans and moves
        keep it, and 'days' shows it as set by hand. A pin on the video for another day is removed
        (a pin is a second of its day). 'clear' gives FILE back the date its metadata gives.
        """
    struct Options: OptionGroup {
        let library = SharedOptions.library
    }
    static let subcommands = ["set", "clear"]

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        let choices = try LibraryChoices(library: args.value(\.library))
        switch args.positionals.first {
        case "set":
            guard args.positionals.count == 3 else { throw UsageError("'date set' takes a FILE and a DAY (YYYY-MM-DD or YYYY-MM-DDTHH:MM)") }
            let given = args.positionals[2]
            let parts = given.split(separator: "T", maxSplits: 1).map(String.init)
            let day = try DayOption.day(parts[0])
            if parts.count == 2, CalendarDay.clockTime(parts[1]) == nil {
                throw UsageError("'\(parts[1])' is not a time of day (write \(day)THH:MM)")
            }
            let r = try choices.setDate(file: args.positionals[1], day: day, time: parts.count == 2 ? parts[1] : nil)
            Console.out(
                "\(ShownPath.escaped(r.path)): a video of \(r.after.day)\(r.after.time.map { " \($0.prefix(5))" } ?? "") (set by hand; it was \(r.before))"
            )
            for pin in r.droppedPins { Console.out("  the pin of \(pin) on it is removed: the video is no longer of that day") }
        case "clear":
            guard args.positionals.count == 2 else { throw UsageError("'date clear' takes one FILE") }
            let r = try choices.clearDate(file: args.positionals[1])
            Console.out(
                "\(ShownPath.escaped(r.path)): a video of \(r.after.day) again, from its \(r.after.source.rawValue) (it was \(r.before), set by hand)"
            )
        default:
            throw UsageError("'date' needs set or clear (see: glimt-pure help date)")
        }
        return ExitStatus.done
    }
}
