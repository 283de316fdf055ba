import Analysis
import AnalysisEngine
import Foundation
import GlimtCore
import Library

/// The person's say over the library: pin a second for a day, hand a day back to automatic
/// choice, exclude or include a day or a video. Kept by day and by content, so every rescan and
/// every move of the files keeps them.
public struct LibraryChoices {
    public let store: LibraryStore
    /// Whose pins and excluded days these are (`LibraryStore.noOne`: the days judged without
    /// references); excluded videos are everyone's.
    public let person: Int

    public init(library: URL, person: Int = LibraryStore.noOne) throws {
        store = try LibraryStore(library: library)
        self.person = person
    }

    /// What a pin did: whether the day was excluded and is included again, and, for a second
    /// taken with `force` that does not show whom the days are judged for, the line saying so.
    public struct Pinned: Sendable {
        public var includedAgain: Bool
        public var notShown: String?
        /// The file pinned is a photo, held for the day's second.
        public var photo = false
    }

    /// A scanned video: by its path in the library, or by its content when it has moved.
    func video(_ file: String) throws -> LibraryStore.Identity {
        if let known = try store.identity(path: URL(fileURLWithPath: file).standardizedFileURL.path) ?? store.identity(path: file) { return known }
        if let status = try? FileStatus(file), status.kind == .file, let known = try store.identity(contentKey: try ContentKey.of(path: file)) {
            return known
        }
        throw GlimtError("is not in the library (scan its folder first: glimt-pure scan FOLDER)", path: file)
    }

    /// Pins `file`'s second at `start` for `day`, by the rule `days` and the film honour a pin by
    /// (`LibraryDays.pinned`): a second in which no analysed frame lies is refused now, with the
    /// latest second that can be pinned, rather than taken and then not honoured. So is, unless
    /// `force`, a second that does not show the person (for the family: any of its people), in
    /// one line saying whom it shows (`WhoIsShown`). A day the person had excluded is included
    /// again (choosing a second on it is wanting it).
    @discardableResult
    /// `start` nil: a photo (held for the second); a video needs one.
    public func pin(day: String, file: String, start: Double?, force: Bool = false) throws -> Pinned {
        try CalendarDay.checked(day)
        let known = try video(file)
        guard let stored = try store.videos(onDay: day).first(where: { $0.contentKey == known.contentKey }) else {
            throw GlimtError("is not a video or photo of \(day) (see: glimt-pure days --from \(day) --to \(day))", path: file)
        }
        let photo = stored.recording?.photo == true
        if photo {
            guard start ?? 0 == 0 else { throw GlimtError("is a photo, held for its day's second: it takes no --at", path: file) }
        } else {
            guard let start else { throw GlimtError("is a video: say where its second starts with --at SECONDS", path: file) }
            guard start.isFinite, start >= 0, start < stored.duration else {
                throw GlimtError(String(format: "--at %.2f is not inside the video (0 to %.2f s)", start, stored.duration), path: file)
            }
        }
        let start = start ?? 0
        // Whether a second can be pinned does not depend on whom the days are judged for.
        let rules = Judgement.Rules(), judgement = LookFor.noOne.judgement(rules), judged = judgement.analysis(of: stored)
        func usable(_ s: Double) -> Bool { LibraryDays.pinned(stored, judged: judged, at: s, rules: rules, judge: judgement.analysis) != nil }
        guard usable(start) else {
            let latest = Self.latestPinnable(stored, usable: usable)
            throw GlimtError(
                String(format: "no analysed frame lies in the second from %.2f s, so it cannot be pinned; ", start)
                    + (latest.map { String(format: "the latest second that can be pinned in it starts at %.2f s", $0) }
                        ?? "no second of it can be pinned"),
                path: file)
        }
        let notShown = try whyNotShown(stored, at: start)
        if let notShown, !force { throw GlimtError(notShown + "; --force pins it anyway", path: file) }
        return Pinned(
            includedAgain: try store.pin(day: day, contentKey: known.contentKey, start: start, person: person), notShown: notShown, photo: photo)
    }

    /// Why the second of `stored` at `start` is not one of the person's: who it shows instead.
    /// Nil when it shows them, or when the days are judged for no one (or a person without
    /// references yet).
    func whyNotShown(_ stored: ObservedVideo, at start: Double) throws -> String? {
        guard person != LibraryStore.noOne else { return nil }
        let people = try ReferenceStore(library: store.folder).people()
        let judged = people.filter { !$0.references.isEmpty && (person == LibraryStore.everyone || $0.id == person) }
        guard !judged.isEmpty, let shown = WhoIsShown.at(start, in: stored, people: people, rules: Judgement.Rules()) else { return nil }
        guard !judged.contains(where: { shown.people.contains($0.name) }) else { return nil }
        let whom = judged.count == 1 ? "\(judged[0].name) is not" : "none of " + judged.map(\.name).joined(separator: ", ") + " is"
        return "\(whom) in the second from \(String(format: "%.2f", start)) s (it shows \(shown.description))"
    }

    /// The latest start, to the hundredth of a second as `pick --at` is shown, that `usable` takes.
    static func latestPinnable(_ video: ObservedVideo, usable: (Double) -> Bool) -> Double? {
        guard let last = video.frames.map(\.time).max() else { return nil }
        var hundredths = Int((min(last + 0.001, video.duration - 0.001) * 100).rounded(.down))
        let lowest = max(0, hundredths - 200)
        while hundredths >= lowest {
            if usable(Double(hundredths) / 100) { return Double(hundredths) / 100 }
            hundredths -= 1
        }
        return nil
    }

    /// The days a person may give (a day left out, a video's day set by hand), from
    /// `earliestDay` to the latest day a capture date is believed (tomorrow in the zone furthest
    /// ahead): nothing before 1900 is a home video's day, and before 15 October 1582
    /// Foundation's calendar counts days as the Julian one (the calendar sheet, `days` and the
    /// film's dates would skip or misplace them; the review page reads years under 100 as 19xx).
    public static let earliestDay = "1900-01-01"

    /// Also what `--from` and `--to` may say: a range reaching outside these days was taken and
    /// then counted in days that no video can have (739,955 "days without video" from year 1).
    public static func checkUsable(_ day: String) throws {
        let latest = CaptureDate.latestDay()
        guard day >= earliestDay, day <= latest else {
            throw GlimtError("\(day) is outside the days glimt handles (\(earliestDay) to \(latest), tomorrow in the zone furthest ahead)")
        }
    }

    /// What `date set` and `date clear` did: the video, its day before and after, and the days
    /// whose pin on it went with its old day.
    public struct Redating: Sendable {
        public var path: String
        public var before: String
        public var after: CaptureDate
        public var droppedPins: [String]
    }

    /// Gives `file` the day (and time, `HH:MM` or `HH:MM:SS`) it was taken, over whatever its
    /// metadata says: for a copy dated by its copy time.
    public func setDate(file: String, day: String, time: String?) throws -> Redating {
        try CalendarDay.checked(day)
        try Self.checkUsable(day)
        if let time, CalendarDay.clockTime(time) == nil { throw GlimtError("'\(time)' is not a time of day (write HH:MM)") }
        let known = try video(file)
        let before = try store.day(contentKey: known.contentKey) ?? day
        let full = time.flatMap(CalendarDay.clockTime)
        let dropped = try store.setDate(contentKey: known.contentKey, path: known.path, day: day, time: full)
        return Redating(
            path: known.path, before: before, after: CaptureDate(day: day, time: full, instant: nil, source: .setByHand), droppedPins: dropped)
    }

    /// Gives `file` back the day its own metadata says (in the time zone it was scanned in).
    public func clearDate(file: String) throws -> Redating {
        let known = try video(file)
        guard try store.clearDate(contentKey: known.contentKey) else { throw GlimtError("has no day set by hand", path: known.path) }
        let before = try store.day(contentKey: known.contentKey) ?? ""
        let zone = TimeZone(identifier: known.method.timeZone) ?? .current
        let facts = try VideoFacts.read(path: known.path, timeZone: zone)
        try store.redate(contentKey: known.contentKey, capture: facts.capture, timeZone: zone.identifier)
        return Redating(path: known.path, before: before, after: facts.capture, droppedPins: [])
    }

    public func automatic(day: String) throws {
        try CalendarDay.checked(day)
        try store.unpin(day: day, person: person)
    }

    /// `target` is a day (YYYY-MM-DD) or a video file. Returns what it was taken as.
    @discardableResult
    public func set(_ target: String, excluded: Bool) throws -> String {
        if let day = CalendarDay.parse(target) {
            // Taking a day out only undoes: any day an older glimt kept may be brought back.
            if excluded { try Self.checkUsable(day) }
            try store.setDay(day, excluded: excluded, person: person)
            return "day \(day)"
        }
        let known = try video(target)
        try store.setVideo(contentKey: known.contentKey, path: known.path, excluded: excluded)
        return known.path
    }
}
