import Foundation
import GlimtPure

struct ReviewCommand: Command {
    static let name = "review"
    static let summary = "Write a page to look at every day's candidate seconds, play them, and choose"
    static let usage = ["review --out DIR [--person NAME | --everyone] [--from DAY] [--to DAY] [-y]"]
    static let about = """
        Writes a static site into DIR from the library: open DIR/index.html in any browser (from your
        own disk: it fetches nothing, and has no server). A year at a glance, each picked day its
        frame; a day's candidates each play their best second (and half a second either side),
        with its score and parts, who is in it, why it was picked or not, its other good seconds,
        and the film's crop. Choose on the page (a candidate, another second on its timeline, leave
        the day out, back to automatic); 'Save choices' downloads glimt-choices.json, and
        'glimt-pure pick --apply glimt-choices.json' applies it. Written again into DIR, only what
        changed is made again. The previews are made by the film's own renderer: what plays is what
        the film shows. DIR must be new, empty or a review already (-y writes into another folder).
        """
    struct Options: OptionGroup {
        let out = RequiredTextOption(
            "--out", "DIR", completion: .folder, what: "the folder to write the site into", "The folder to write the site into (required)")
        /// A review writes a folder, not a file: -y is what lets it into one that holds other files.
        let overwrite = FlagOption(
            "--overwrite", short: "-y",
            "Write the site into a folder that holds other files and no review yet (otherwise it is refused); an index.html or YEAR.html there is replaced"
        )
        let days = DayRange()
        let judging = JudgingOptions()
    }
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        let dir = try args.value(\.out)
        let (from, to) = try args.value(\.days)
        let site = try ReviewSite(folder: URL(fileURLWithPath: dir, isDirectory: true).standardizedFileURL, overwrite: args.flag(\.overwrite))
        let days = try JudgingOptions.days(args.group(\.judging))
        let person = days.lookFor.everyone ? " --everyone" : days.lookFor.judged.map { " --person \(shellQuoted($0.name))" } ?? ""
        let library = args.text(\.judging.references.library).map { " --library \(shellQuoted($0))" } ?? ""
        let started = Date()
        let line = ProgressLine()
        let outcome = try site.write(days: days, from: from, to: to, command: "glimt-pure pick --apply glimt-choices.json\(person)\(library)") {
            done, total in
            line.update("review: thumbnails and previews \(done)/\(total)")
        }
        line.clear()
        for e in outcome.unreadable + outcome.inTheWay + outcome.othersFiles { Console.err("glimt-pure review: \(e)") }
        let years = outcome.years.map(String.init).joined(separator: ", ")
        let leftAlone = outcome.inTheWay.count + outcome.othersFiles.count
        Console.out(
            "wrote \(site.folder.appendingPathComponent("index.html").path): \(years), \(outcome.daysRecorded) days with video or photos, \(outcome.candidates) candidates; "
                + "\(outcome.previewsMade) previews and \(outcome.thumbsMade) thumbnails made, \(outcome.reused) reused"
                + (leftAlone > 0 ? "; \(leftAlone) \(leftAlone == 1 ? "file" : "files") not glimt's left alone (named above)" : "")
                + String(format: " (%.1f s)", Date().timeIntervalSince(started)))
        // A file in the way is a page, picture or script the review goes without.
        return outcome.unreadable.isEmpty && outcome.inTheWay.isEmpty ? ExitStatus.done : ExitStatus.failed
    }

    /// A word as a shell takes it back.
    static func shellQuoted(_ s: String) -> String {
        s.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) } ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
