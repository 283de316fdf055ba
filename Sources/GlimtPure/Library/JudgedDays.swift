import Analysis
import Foundation
import GlimtCore
import Library

/// `LibraryDays`' reports kept between runs (see `JudgementCache`): a day is judged again only
/// when something its report depends on changed, so a run costs what changed plus a read of the
/// rest, not a re-judgement of the library.
///
/// What a report depends on, and so what files it:
/// - the scope, the same for every day of a run: this program's own file (a new build judges
///   afresh), the library's people with their references (every face is matched to all of them),
///   the person judged or everyone, and the rules (thresholds, clip length, aspect, recordings,
///   days without the person, photos);
/// - the day's key: every column of its videos' rows, and the person's choices touching the day
///   (its pin, whether it is excluded, which of its videos are excluded).
/// A day whose pin is not honoured is not kept: why is said from other days' rows.
struct JudgedDays {
    private let cache: JudgementCache?
    private let scope: String
    /// Each day's key, from its stamp and the choices touching it: made once, asked of every day.
    private let keys: [String: String]
    private let choices: LibraryStore.Choices
    private var kept: [String: JudgementCache.Entry]
    private var made: [(day: String, entry: JudgementCache.Entry)] = []
    /// Days judged in this run, and days whose kept report was used.
    private(set) var count = LibraryDays.Judged()
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return e
    }()

    /// Reports made are written to the cache in batches of this many, so that a run stopped
    /// partway (a closed pipe, a kill) keeps most of what it judged.
    private static let batch = 256

    init(_ days: LibraryDays, from: String, to: String, choices: LibraryStore.Choices) {
        self.choices = choices
        let program = RunningBinary.path.flatMap { try? FileStatus($0) }
        guard ProcessInfo.processInfo.environment["GLIMT_KEEP_JUDGEMENTS"] != "0", let program,
            let people = try? encoder.encode(days.lookFor.people), let cache = JudgementCache(library: days.store.folder),
            let stamps = try? days.store.dayStamps(from: from, to: to)
        else {
            (cache, scope, keys, kept) = (nil, "", [:], [:])
            return
        }
        var h = StableHash()
        h.add("\(OwnMark.text) \(program.device) \(program.inode) \(program.size) \(program.modified.timeIntervalSince1970)")
        h.add(String(decoding: people, as: UTF8.self))
        h.add("person \(days.lookFor.person.map(String.init) ?? "none") everyone \(days.lookFor.everyone)")
        h.add("\(days.judgement.rules)")
        (self.cache, scope) = (cache, h.hex)
        keys = stamps.reduce(into: [:]) { $0[$1.key] = Self.key($1.key, $1.value, choices) }
        kept = cache.entries(scope: scope, from: from, to: to)
    }

    private static func key(_ day: String, _ stamp: LibraryStore.DayStamp, _ choices: LibraryStore.Choices) -> String {
        var h = StableHash()
        h.add(stamp.rows)
        if let pin = choices.pins[day] {
            h.add(pin.contentKey)
            h.add(pin.start.bitPattern)
        }
        h.add(choices.excludedDays.contains(day) ? "excluded" : "included")
        for key in stamp.contentKeys where choices.excludedVideos.contains(key) { h.add(key) }
        return h.hex
    }

    /// Whether the day's report is kept, with its key unchanged.
    func holds(_ day: String) -> Bool {
        guard cache != nil, let key = keys[day] else { return false }
        return kept[day]?.key == key
    }

    /// The day's report: the one kept when its key is unchanged, else `judge`'s, then kept.
    mutating func report(_ day: String, judge: () throws -> DayReport) throws -> DayReport {
        guard let cache, let key = keys[day] else {
            count.judged += 1
            return try judge()
        }
        if let entry = kept[day], entry.key == key {
            let bytes = Data(entry.report)
            if var report = try? JSONOutput.decoder().decode(DayReport.self, from: bytes) {
                count.kept += 1
                report.json = bytes
                return report
            }
        }
        count.judged += 1
        let report = try judge()
        if choices.pins[day] == nil || report.status == .pinned, let bytes = try? report.json ?? JSONOutput.encoder(pretty: false).encode(report) {
            made.append((day, JudgementCache.Entry(key: key, report: [UInt8](bytes))))
            if made.count >= Self.batch {
                cache.keep(made, scope: scope)
                made.removeAll()
            }
        }
        return report
    }

    /// Writes what was judged and not yet kept.
    mutating func save() {
        guard let cache, !made.isEmpty else { return }
        cache.keep(made, scope: scope)
        made.removeAll()
    }
}
