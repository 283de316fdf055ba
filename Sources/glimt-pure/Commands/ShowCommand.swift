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
    struct Options: OptionGroup {
        let sheet = SharedOptions.sheet
        let overwrite = SharedOptions.overwrite
        let judging = JudgingOptions()
    }
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("one DAY", min: 1, max: 1)
        let day = try DayOption.day(args.positionals[0])
        let sheet = try DaySheet(output: try args.value(\.sheet), overwrite: args.flag(\.overwrite))
        let outcome = try sheet.write(day: day, days: try JudgingOptions.days(args.group(\.judging)))
        let r = outcome.report
        Notes.print(r.candidates, command: name)
        let how = r.status == .pinned ? "pinned" : r.status == .withoutPerson ? "picked without the person" : "picked"
        let pick = r.pick.map {
            ": \(how) \(ShownPath.escaped(URL(fileURLWithPath: $0.video).lastPathComponent)) \(SecondText.at($0.start, photo: $0.photo))"
        }
        Console.out(
            "wrote \(ShownPath.escaped(sheet.output)): \(day), \(DayPick.counted(r.candidates.map(\.kind.isPhoto)))"
                + (pick ?? ", no pick (\(r.reason ?? r.status.rawValue))"))
        return SheetRun.report(outcome.unreadable, command: name)
    }
}
