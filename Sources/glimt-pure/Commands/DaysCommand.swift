import Foundation
import GlimtPure

struct DaysCommand: Command {
    static let name = "days"
    static let summary = "List the library's days: each day's pick, its other candidates, and the days without"
    static let usage = ["days [--from DAY] [--to DAY] [--json] [options]"]
    static let about = """
        Every day with video or photos from --from (default: the first such day) to --to
        (default: the last), with its pick (video or photo, second, score, whether the person was
        found, automatic or pinned), its other videos and photos, and the days without the person
        or excluded; each run of days with neither is one line (--all lists every day). Judged
        from the stored frames with today's references: nothing is decoded. Days dated only by a
        file's modification time are marked, since a copied file's time is the day of the copy
        ('glimt-pure date set' gives such a video its real day); days set by hand are marked too.
        """
    struct Options: OptionGroup {
        let days = DayRange()
        let all = FlagOption(
            "--all", "List every day of the range, each day without video on a line of its own (by default a run of them is one line)")
        let json = FlagOption("--json", "Print JSON, one day after another as they are judged (days without video only with --all)")
        let judging = JudgingOptions()
    }
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        let (from, to) = try args.value(\.days)
        let days = try JudgingOptions.days(args.group(\.judging))
        let json = args.flag(\.json), everyDay = args.flag(\.all)
        if json { Console.out("[") }
        var first = true
        var count = 0
        var mtimeDated: [String] = []
        var gap: [String] = []
        let encoder = JSONOutput.encoder(pretty: false)
        let judged = try days.forEachDay(from: from, to: to) { report in
            if report.status == .noVideo && !everyDay {
                gap.append(report.day)
                return
            }
            if !json { printGap(&gap) }
            count += 1
            mtimeDated += report.datedByModificationTime
            Notes.print(report.candidates, command: name)
            if json {
                // One day per line: a year streams out as it is judged.
                Console.outJSON((first ? "  " : ", ") + String(decoding: try report.json ?? encoder.encode(report), as: UTF8.self))
                first = false
            } else {
                printDay(report)
            }
        }
        if json { Console.out("]") } else { printGap(&gap) }
        Console.note(
            "glimt-pure days: \(judged.judged) day\(judged.judged == 1 ? "" : "s") judged, \(judged.kept) kept from an earlier run (nothing they depend on changed)"
        )
        if count == 0 {
            Console.err(
                "glimt-pure days: the library has no videos\(from != nil || to != nil ? " in that range" : "") (add some: glimt-pure scan FOLDER)")
        }
        if !mtimeDated.isEmpty {
            Console.err(
                "glimt-pure days: warning: \(mtimeDated.count) video\(mtimeDated.count == 1 ? " is" : "s are") dated only by file modification time (a copy's time is the day of the copy): "
                    + mtimeDated.prefix(5).map(ShownPath.escaped).joined(separator: ", ") + (mtimeDated.count > 5 ? ", ..." : ""))
        }
        return ExitStatus.done
    }

    /// Days without video, in a run: one line, `2024-05-08 .. 2024-06-30: 54 days without video`.
    static func printGap(_ gap: inout [String]) {
        guard let first = gap.first, let last = gap.last else { return }
        Console.out(gap.count == 1 ? "\(first)  -  no video" : "\(first) .. \(last)  -  \(gap.count) days without video")
        gap.removeAll()
    }

    static func printDay(_ r: DayReport) {
        let mark = r.datedByModificationTime.isEmpty ? "" : "  (dated by file time!)"
        switch r.status {
        case .noVideo:
            Console.out("\(r.day)  -  no video")
            return
        case .picked, .pinned, .withoutPerson:
            guard let p = r.pick else { return }
            let how = r.status == .pinned ? "pinned" : (r.status == .withoutPerson ? "picked, WITHOUT \(r.person ?? "the person")" : "picked")
            let who = r.person ?? "person"
            // A pin's evidence is its own second's, and said so.
            let person =
                p.identity.map {
                    let cosine = "best cosine \(String(format: "%.2f", $0.bestCosine))"
                    return r.status == .pinned
                        ? ", \(who) \($0.containsPerson ? "in" : "not in") the pinned second (\(cosine))"
                        : $0.containsPerson ? ", \(who) found (\(cosine))" : ", \(who) not found"
                } ?? ""
            let dated =
                (p.dateSource == .setByHand ? "  (date set by hand)" : "")
                + (r.person == "everyone" ? ", with " + (p.people?.joined(separator: ", ") ?? "no one") : "")
            Console.out(
                "\(r.day)  \(how): \(ShownPath.escaped(p.video)) \(SecondText.at(p.start, photo: p.photo)), score \(String(format: "%.3f", p.score))\(person)\(mark)\(dated)"
            )
            MomentLines.print(flaws: p.flaws, passedOver: p.passedOver, indent: 4)
        default:
            Console.out("\(r.day)  \(r.status.rawValue): \(r.reason ?? "")\(mark)")
        }
        for c in r.candidates where !c.picked {
            let at =
                c.start.map {
                    c.kind.isPhoto
                        ? String(format: "photo, score %.3f", c.score ?? 0) : String(format: "best at %.2f s, score %.3f", $0, c.score ?? 0)
                }
                ?? "too short"
            let person = c.containsPerson.map { $0 ? ", \(r.person ?? "person") in it" : ", \(r.person ?? "person") not in it" } ?? ""
            Console.out(
                "    also: \(ShownPath.escaped(c.video))  \(at)\(person)\(c.excluded ? ", EXCLUDED" : "")\(c.setAside.map { ", set aside: " + $0 } ?? "")"
                    + (c.dateSource == .setByHand ? ", date set by hand" : ""))
        }
    }
}
