import Foundation
import GlimtPure

struct ShowCommand: Command {
    static let name = "show"
    static let summary = "Draw a day's videos side by side: each one's best second and score, the pick marked"
    static let usage = ["show DAY --sheet OUT.jpg [options]"]
    static let about = """
    One tile per video of DAY: the frame in the middle of its best second (of the pinned second,
    for a pinned video), upright, with its file name, score and the score's parts (looks,
    sharpness, face, person) under it. The day's pick has a thick border and a tag: PICK in green,
    PINNED in blue, or PICK, NO PERSON in orange for a pick without the person; the part of it the
    film shows stays bright. Excluded videos are dimmed and framed in red. The day is judged as
    'glimt-pure days' judges it, with today's references; only the frames shown are decoded. JPEG
    or PNG by the name of OUT.
    """
    static let options: [OptionSpec] = [sheet, CommonOptions.overwrite] + AnalysisArguments.judging
    static let positionals = OptionSpec.Completion.none
    static let sheet = OptionSpec.value("--sheet", "OUT.jpg", completion: .file, "The sheet to write, .jpg or .png (required)")

    static func run(_ args: Arguments) throws -> Int32 {
        try args.requirePositionals("one DAY", min: 1, max: 1)
        let day = try Arguments.day(args.positionals[0])
        let sheet = try DaySheet(output: try SheetRun.output(args), overwrite: args.flag("--overwrite"))
        let outcome = try sheet.write(day: day, days: try SheetRun.days(args))
        let r = outcome.report
        Notes.print(r.candidates, command: name)
        let how = r.status == .pinned ? "pinned" : r.status == .withoutPerson ? "picked without the person" : "picked"
        let pick = r.pick.map { ": \(how) \(ShownPath.escaped(URL(fileURLWithPath: $0.video).lastPathComponent)) at \(String(format: "%.2f", $0.start)) s" }
        Console.out("wrote \(ShownPath.escaped(sheet.output)): \(day), \(r.candidates.count) video\(r.candidates.count == 1 ? "" : "s")" + (pick ?? ", no pick (\(r.reason ?? r.status.rawValue))"))
        return SheetRun.report(outcome.unreadable, command: name)
    }
}

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
    static let options: [OptionSpec] = [.value("--year", "Y", "The year to draw (default: the year of the library's latest day)"),
                                        ShowCommand.sheet, CommonOptions.overwrite] + AnalysisArguments.judging
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        let year = try args.count("--year", range: 1...9999)
        let sheet = try CalendarSheet(output: try SheetRun.output(args), overwrite: args.flag("--overwrite"))
        let progress = ProgressLine()
        let outcome = try sheet.write(year: year, days: try SheetRun.days(args), progress: { done, total, day in
            progress.update("reading the frames: day \(done + 1)/\(total)  \(day)")
        })
        progress.clear()
        for day in outcome.days { Notes.print(day.candidates.filter(\.picked), command: name) }
        let count = { (statuses: [DayReport.Status]) in outcome.days.filter { statuses.contains($0.status) }.count }
        Console.out("wrote \(ShownPath.escaped(sheet.output)): \(outcome.year), \(count([.picked, .pinned, .withoutPerson])) days picked (\(count([.pinned])) pinned, "
                    + "\(count([.withoutPerson])) without the person), \(count([.excluded])) excluded, \(count([.noPerson, .tooShort, .setAside])) with videos but no pick")
        return SheetRun.report(outcome.unreadable, command: name)
    }
}

/// What both sheets take from the command line.
enum SheetRun {
    static func output(_ args: Arguments) throws -> String {
        guard let sheet = args.value("--sheet") else { throw UsageError("'\(args.command)' needs --sheet OUT.jpg (or .png)") }
        return sheet
    }

    static func days(_ args: Arguments) throws -> LibraryDays { try AnalysisArguments.days(args) }

    /// One line per video that could not be read; the sheet was drawn without it.
    static func report(_ unreadable: [GlimtError], command: String) -> Int32 {
        for e in unreadable { Console.err("glimt-pure \(command): \(e)") }
        return unreadable.isEmpty ? ExitStatus.done : ExitStatus.failed
    }
}
