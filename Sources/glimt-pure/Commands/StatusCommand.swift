import Foundation
import GlimtPure

struct StatusCommand: Command {
    static let name = "status"
    static let summary = "When the library was last scanned, what is new since, and what failed"
    static let usage = ["status [--all] [--json] [--library DIR]"]
    static let about = """
        Says how many videos the library holds and over which days, when it was last scanned (and
        merged into), whether a scan is at work now, which videos in the watched folders are new or
        changed since (by name, size and time: nothing is opened or decoded, so a moved video counts
        until a scan recognises it), and the files the last scan could not use, each with its reason.
        Without watched folders ('glimt-pure folders add DIR') it looks in the folders of the last
        \(ScanHistory.kept) scans it remembers.
        """
    struct Options: OptionGroup {
        let all = FlagOption("--all", "List every new video (otherwise the first \(StatusCommand.shown))")
        let json = SharedOptions.json
        let library = SharedOptions.library
    }
    static let shown = 10
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        let config = try? ConfigFile.location()
        let s = try LibraryStatus.read(library: try args.value(\.library), config: config)
        if args.flag(\.json) {
            try Console.json(s)
            return ExitStatus.done
        }
        Console.out(
            "library: \(ShownPath.escaped(s.library)): \(DayPick.counted(videos: s.videos - s.photos, photos: s.photos))"
                + (s.firstDay.map { ", \($0) to \(s.lastDay ?? $0)" } ?? ""))
        if s.scanning { Console.out("scanning now: another glimt-pure is scanning into this library") }
        if let scan = s.lastScan {
            Console.out("last scan: " + describe(scan) + (scan.shard.map { " (shard \($0))" } ?? ""))
        } else {
            Console.out("last scan: none yet (glimt-pure scan)")
        }
        if let merge = s.lastMerge {
            Console.out("last merge: " + describe(merge) + " from \(merge.inputs.map(ShownPath.escaped).joined(separator: ", "))")
        }
        if s.watchedFolders.isEmpty {
            Console.out(
                "watched folders: none (glimt-pure folders add DIR)"
                    + (s.lookedIn.isEmpty ? "" : "; new videos looked for in the folders of the last scans"))
        } else {
            Console.out(
                "watched folders: "
                    + s.watchedFolders.map { ShownPath.escaped($0.path) + ($0.present ? "" : " (not there now)") }.joined(separator: ", "))
        }
        if s.lookedIn.isEmpty {
            Console.out("new since: not looked for (no watched folders, no scan yet)")
        } else {
            Console.out(
                "new or changed since: \(DayPick.counted(s.new.map(VideoAnalyzer.isPhoto)))" + (s.new.isEmpty ? "" : " (glimt-pure scan)")
                    + (s.lastScan?.shard.map { "; this library holds shard \($0), so the other shards' videos count too" } ?? ""))
            for path in args.flag(\.all) ? s.new : Array(s.new.prefix(shown)) { Console.out("  " + ShownPath.escaped(path)) }
            if !args.flag(\.all) && s.new.count > shown { Console.out("  ... and \(s.new.count - shown) more (--all lists them)") }
        }
        for u in s.unreadable { Console.out("cannot look in: \(ShownPath.escaped(u.path)): \(u.reason)") }
        if !s.failed.isEmpty {
            Console.out("failed in the last scan: \(s.failed.count)")
            for f in s.failed { Console.out("  \(ShownPath.escaped(f.path)): \(f.reason)") }
        }
        return ExitStatus.done
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `2024-06-21 03:12, 4m05s: 12 analysed, 1,222 unchanged of 1,234 found`.
    static func describe(_ r: ScanRecord) -> String {
        let when = time(r.started)
        guard let finished = r.finished else { return "started \(when) and has not finished (it is at work, or was killed)" }
        let verb = r.kind == .merge ? "added" : "analysed"
        return "\(when), \(CompactDuration.text(finished.timeIntervalSince(r.started))): \(r.analysed) \(verb), \(r.unchanged) "
            + (r.kind == .merge ? "already here" : "unchanged") + " of \(r.found) found"
            + (r.stopped ? "; stopped before the end (run it again to go on)" : "")
    }

    /// A time as this machine's clock shows it.
    static func time(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone.current
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }
}
