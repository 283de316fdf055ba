import Foundation
import GlimtPure

struct CalendarCommand: Command {
    static let name = "calendar"
    static let summary = "Draw a year as a calendar, each picked day showing its frame"
    static let usage = ["calendar [--year Y] --sheet OUT.jpg [options]"]
    static let about = """
        Twelve months of weeks (Monday first) for the year (default: the year of the library's latest
        day). A day with a pick shows its chosen frame, filled around the part the film shows; a day
        without one is left empty, its number in grey. Framed: blue a pinned second, orange a pick
        without the person, red an excluded day, grey a day with videos but no pick. Days are judged as
        'glimt-pure days' judges them, with today's references; one frame per picked day is decoded.
        JPEG or PNG by the name of OUT.
        """
    struct Options: OptionGroup {
        let year = OptionalNumberOption<Int>("--year", "Y", range: 1...9999, "The year to draw (default: the year of the library's latest day)")
        let sheet = SharedOptions.sheet
        let overwrite = SharedOptions.overwrite
        let judging = JudgingOptions()
    }
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        let year = try args.value(\.year)
        let sheet = try CalendarSheet(output: try args.value(\.sheet), overwrite: args.flag(\.overwrite))
        let progress = ProgressLine()
        let outcome = try sheet.write(
            year: year, days: try JudgingOptions.days(args.group(\.judging)),
            progress: { done, total, day in
                progress.update("reading the frames: day \(done + 1)/\(total)  \(day)")
            })
        progress.clear()
        for day in outcome.days { Notes.print(day.candidates.filter(\.picked), command: name) }
        let count = { (statuses: [DayReport.Status]) in outcome.days.filter { statuses.contains($0.status) }.count }
        Console.out(
            "wrote \(ShownPath.escaped(sheet.output)): \(outcome.year), \(count([.picked, .pinned, .withoutPerson])) days picked (\(count([.pinned])) pinned, "
                + "\(count([.withoutPerson])) without the person), \(count([.excluded])) excluded, \(count([.noPerson, .tooShort, .setAside])) with videos but no pick"
        )
        return SheetRun.report(outcome.unreadable, command: name)
    }
}
