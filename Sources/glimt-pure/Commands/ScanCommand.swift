import Foundation
import GlimtPure

struct ScanCommand: Command {
    static let name = "scan"
    static let summary = "Bring the library up to date with folders of video: analyse what is new or changed"
    static let usage = ["scan [FOLDER|VIDEO...] [--from DAY] [--to DAY] [--shard K/N] [--if-idle] [options]"]
    static let about = """
        Finds the videos in the folders (recursively; hidden folders skipped, links followed without
        loops), and analyses those that are new or changed, keeping every sampled frame's scores and
        every face's box and embedding in the library. A video already scanned costs a look at its
        size and time; one moved or renamed is recognised by its content and not analysed again; an
        edited one is analysed again. Each video is committed on its own: a scan stopped at any moment
        (Ctrl-C, a crash, a power cut) loses at most the videos in progress, and the next scan goes on.
        A video is measured on every core; clips under \(SideBySide.below) s go two at a time (--jobs).
        Another scan of the same library waits for this one (with --if-idle it leaves the work to it
        and exits 0: the daily timer's scan does).

        With no FOLDER or VIDEO, the watched folders are scanned ('glimt-pure folders add DIR').
        'glimt-pure status' says when the library was last scanned, what is new since and what failed.

        --shard K/N analyses only the videos of shard K of N, chosen by a hash of each video's content
        key (its size and first and last MiB: the same on every machine, however the folder is
        mounted), so that N workers can each fill a library of their own, to be brought together with
        'glimt-pure merge'. Each worker reads the ends of every file to know its shard.

        References are not needed to scan: 'glimt-pure days' and 'glimt-pure film' judge the stored
        frames with today's references, so adding one later needs no new scan.
        """
    struct Options: OptionGroup {
        let days = DayRange()
        let jobs = NumberOption(
            "--jobs", "N", default: LibraryScan.standardWorkers, range: 1...64,
            "Clips under \(SideBySide.below) s analysed at once (longer videos go one at a time, on every core)")
        let shard = TextOption(
            "--shard", "K/N", "Analyse only the videos of shard K of N (1 <= K <= N), by content, for N workers each filling a library of its own")
        let ifIdle = FlagOption(
            "--if-idle",
            "When another scan is working on this library, leave the work to it and exit 0 at once instead of waiting (the daily timer's scan)")
        let json = SharedOptions.json
        let library = SharedOptions.library
        let analysing = AnalysingOptions.forTheLibrary
    }
    static let positionals = OptionSpec.Completion.folder

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        let options = try args.value(\.analysing)
        let (from, to) = try args.value(\.days)
        var part: Shard?
        if let text = args.value(\.shard) {
            guard let s = Shard(text) else {
                throw UsageError("--shard must be K/N, whole numbers with 1 <= K <= N <= \(Shard.maxCount), not '\(text)'")
            }
            part = s
        }
        let inputs = try args.positionals.isEmpty ? watchedFolders() : args.positionals
        let scan = LibraryScan(
            library: try args.value(\.library), options: options, fromDay: from, toDay: to, workers: try args.value(\.jobs),
            shard: part, leaveIfBusy: args.flag(\.ifIdle))
        let line = ProgressLine()
        // Ctrl-C, SIGTERM and a closed terminal stop the scan between frames: every finished
        // video is kept, and the next scan goes on from there.
        StopRequest.install()
        defer { StopRequest.uninstall() }
        let summary: LibraryScan.Summary
        do {
            summary = try scan.run(
                inputs,
                progress: { p in
                    if line.isTerminal {
                        line.update(bar(p))
                    } else if let finished = p.finished {
                        line.log(
                            "scanned \(p.videosDone)/\(p.videosTotal) \(ShownPath.escaped(URL(fileURLWithPath: finished).lastPathComponent))"
                                + (p.secondsLeft.map { ", ETA " + CompactDuration.text($0) } ?? ""))
                    }
                },
                report: { f in
                    line.clear()
                    Console.err("glimt-pure scan: \(ShownPath.escaped(f.path)): \(f.reason)")
                },
                waiting: {
                    Console.err("glimt-pure scan: another scan is working on this library; waiting for it to finish")
                })
        } catch is Stopped {
            Console.err(
                "glimt-pure scan: stopped (\(StopRequest.signal.map(signalName) ?? "interrupted")) while waiting for the other scan; nothing was done"
            )
            return ExitStatus.interrupted
        }
        line.clear()
        if summary.leftToAnotherScan && !args.flag(\.json) {
            Console.notice("glimt-pure scan: another scan is working on this library; leaving the work to it (--if-idle)")
            return ExitStatus.done
        }
        if args.flag(\.json) {
            try Console.json(summary)
        } else {
            Console.out(
                "\(DayPick.counted(videos: summary.found - summary.photosFound, photos: summary.photosFound)) found: \(summary.analysed) analysed, \(summary.unchanged) unchanged, "
                    + "\(summary.moved) moved, \(summary.duplicates.count) duplicate\(summary.duplicates.count == 1 ? "" : "s") counted once, "
                    + "\(summary.outOfRange) outside the days asked, " + (part.map { "\(summary.otherShards) in other shards than \($0), " } ?? "")
                    + "\(summary.failures.count) could not be read"
                    + (summary.skipped.isEmpty ? "" : ", \(summary.skipped.count) skipped (named above)")
                    + String(format: " (%.1f s)", summary.seconds))
            if summary.reobserved > 0 {
                Console.out(
                    "analysed again with this scan's settings: \(summary.reobserved) video\(summary.reobserved == 1 ? "" : "s") (\(summary.settingsChanged.joined(separator: "; ")))"
                )
            }
            if summary.redated > 0 {
                Console.out(
                    "dated again in \(options.timeZone.identifier): \(summary.redated) video\(summary.redated == 1 ? " is" : "s are") on another day now"
                )
            }
        }
        if summary.stopped && summary.toAnalyse == 0 && summary.analysed == 0 {
            Console.err(
                "glimt-pure scan: stopped (\(StopRequest.signal.map(signalName) ?? "interrupted")) while looking for videos: nothing was analysed; run the same scan again to go on"
            )
            return ExitStatus.interrupted
        } else if summary.stopped {
            let left = summary.toAnalyse - summary.analysed - summary.failures.count
            Console.err(
                "glimt-pure scan: stopped (\(StopRequest.signal.map(signalName) ?? "interrupted")): \(summary.analysed) of the \(summary.toAnalyse) video\(summary.toAnalyse == 1 ? "" : "s") to analyse "
                    + "\(summary.analysed == 1 ? "is" : "are") kept in the library, \(left) left; run the same scan again to go on from there")
            return ExitStatus.interrupted
        }
        if summary.leftToAnotherScan { return ExitStatus.done }
        if summary.found == 0 && summary.failures.isEmpty {
            throw GlimtError("no videos or photos found in \(inputs.map(ShownPath.escaped).joined(separator: ", "))")
        }
        return summary.failures.isEmpty ? ExitStatus.done : ExitStatus.failed
    }

    /// The folders to scan when none are named: the watched ones, said unless -q.
    static func watchedFolders() throws -> [String] {
        let config = try ConfigFile.location()
        let folders = try ConfigFile.load(config).folders
        guard !folders.isEmpty else {
            throw UsageError(
                "no folders to scan: name them (glimt-pure scan FOLDER|VIDEO...) or watch them (glimt-pure folders add DIR, kept in \(ShownPath.escaped(config)))"
            )
        }
        Console.notice(
            "glimt-pure scan: scanning the \(folders.count == 1 ? "watched folder" : "\(folders.count) watched folders") (\(ShownPath.escaped(config)))"
        )
        return folders
    }

    static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGINT: return "Ctrl-C"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "the terminal closed"
        default: return "signal \(s)"
        }
    }

    /// `scanning [#########.........]  45%  5/12 videos  next party.mp4  312 frames/s  ETA 1m05s`
    static func bar(_ p: LibraryScan.Progress) -> String {
        let cells = 20, filled = min(cells, Int((p.fraction * Double(cells)).rounded(.down)))
        var s =
            "scanning [" + String(repeating: "#", count: filled) + String(repeating: ".", count: cells - filled) + "]"
            + String(format: " %3.0f%%", min(100, p.fraction * 100)) + "  \(p.videosDone)/\(p.videosTotal) videos"
        s += String(format: "  %.0f frames/s", p.framesPerSecond)
        s += "  ETA " + (p.secondsLeft.map(CompactDuration.text) ?? "...")
        if let next = p.next { s += "  next " + ShownPath.escaped(URL(fileURLWithPath: next).lastPathComponent) }
        return s
    }
}
