import Foundation
import GlimtPure

struct MergeCommand: Command {
    static let name = "merge"
    static let summary = "Bring other libraries' analyses into this one (shards scanned elsewhere)"
    static let usage = ["merge OTHER_LIBRARY... [--library DIR] [--path-map OLD=NEW]... [--choices]"]
    static let about = """
        Brings each OTHER_LIBRARY's videos, with their frames and faces, how each was observed and
        what its scan said of it, into the library, each other library in one transaction. Videos are
        recognised by content: one in both is kept once (as this library has it), and merging the
        same library again changes nothing. A path that differs between machines (a NAS mounted at
        /mnt/nas here and /media/nas there) is rewritten by --path-map OLD=NEW, so that the next scan
        here finds the videos unchanged. A path this library holds with other content is settled by
        the file there now; when it is neither, the video is left out with a line. The other library
        is only read.

        Its references, pins and exclusions stay out: --choices brings its pins, excluded days (of the
        people this library knows by the same name) and excluded videos, keeping this library's where
        both have one. References are added with 'glimt-pure reference add'. The usual use: N workers
        each run 'glimt-pure scan DIR --shard K/N --library lib-K', then 'glimt-pure merge lib-1 ...
        lib-N'.
        """
    struct Options: OptionGroup {
        let pathMap = ListOption(
            "--path-map", "OLD=NEW", completion: .folder, "The other library's paths under the folder OLD are under NEW here (both absolute)")
        let choices = FlagOption("--choices", "Also bring the other library's pins, excluded days and excluded videos")
        let json = SharedOptions.json
        let library = SharedOptions.library
    }
    static let positionals = OptionSpec.Completion.folder

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("at least one OTHER_LIBRARY")
        let maps = try args.all(\.pathMap).map { text -> LibraryMerge.PathMap in
            guard let map = LibraryMerge.PathMap(text) else { throw UsageError("--path-map must be OLD=NEW, two absolute folders, not '\(text)'") }
            return map
        }
        let library = try args.value(\.library)
        var summaries: [String: LibraryStore.MergeSummary] = [:]
        var leftOut = false
        for other in args.positionals {
            let started = Date()
            let s = try LibraryMerge.run(
                URL(fileURLWithPath: other, isDirectory: true).standardizedFileURL, into: library, pathMaps: maps,
                choices: args.flag(\.choices)
            ) {
                Console.notice("glimt-pure merge: a scan is working on \(ShownPath.escaped(library.path)); waiting for it to finish")
            }
            for l in s.leftOut { Console.err("glimt-pure merge: \(ShownPath.escaped(l.path)): \(l.reason)") }
            leftOut = leftOut || !s.leftOut.isEmpty
            summaries[other] = s
            guard !args.flag(\.json) else { continue }
            Console.out(
                "merged \(ShownPath.escaped(other)): \(s.added) video\(s.added == 1 ? "" : "s") added (\(s.frames) frames, \(s.faces) faces), \(s.alreadyHere) already here"
                    + (s.pathsMapped > 0 ? ", \(s.pathsMapped) paths mapped" : "")
                    + (s.replaced > 0 ? ", \(s.replaced) replacing this library's at their paths" : "")
                    + (s.leftOut.isEmpty ? "" : ", \(s.leftOut.count) left out (named above)")
                    + String(format: " (%.1f s)", Date().timeIntervalSince(started)))
            if args.flag(\.choices) {
                Console.out(
                    "  choices: \(s.pins) pins, \(s.excludedDays) excluded days, \(s.excludedVideos) excluded videos"
                        + (s.choicesLeftOut > 0
                            ? "; \(s.choicesLeftOut) left out (of people this library does not know, or days it has its own pin for)" : ""))
            }
        }
        if args.flag(\.json) { try Console.json(summaries) }
        return leftOut ? ExitStatus.failed : ExitStatus.done
    }
}
