import Analysis
import Foundation
import GlimtCore
import AnalysisEngine
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

    /// A scanned video: by its path in the library, or by its content when it has moved.
    func video(_ file: String) throws -> LibraryStore.Identity {
        if let known = try store.identity(path: URL(fileURLWithPath: file).standardizedFileURL.path) ?? store.identity(path: file) { return known }
        if let status = try? FileStatus(file), status.kind == .file, let known = try store.identity(contentKey: try ContentKey.of(path: file)) {
            return known
        }
        throw GlimtError("is not in the library (scan its folder first: glimt-pure scan FOLDER)", path: file)
    }

    /// Pins `file`'s second at `start` for `day`.
    public func pin(day: String, file: String, start: Double) throws {
        try CalendarDay.checked(day)
        let known = try video(file)
        guard let stored = try store.videos(onDay: day).first(where: { $0.contentKey == known.contentKey }) else {
            throw GlimtError("is not a video of \(day) (see: glimt-pure days --from \(day) --to \(day))", path: file)
        }
        guard start.isFinite, start >= 0, start < stored.duration else {
            throw GlimtError(String(format: "--at %.2f is not inside the video (0 to %.2f s)", start, stored.duration), path: file)
        }
        try store.pin(day: day, contentKey: known.contentKey, start: start, person: person)
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
        if let time, CalendarDay.clockTime(time) == nil { throw GlimtError("'\(time)' is not a time of day (write HH:MM)") }
        let known = try video(file)
        let before = try store.day(contentKey: known.contentKey) ?? day
        let full = time.flatMap(CalendarDay.clockTime)
        let dropped = try store.setDate(contentKey: known.contentKey, path: known.path, day: day, time: full)
        return Redating(path: known.path, before: before, after: CaptureDate(day: day, time: full, instant: nil, source: .setByHand), droppedPins: dropped)
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
            try store.setDay(day, excluded: excluded, person: person)
            return "day \(day)"
        }
        let known = try video(target)
        try store.setVideo(contentKey: known.contentKey, path: known.path, excluded: excluded)
        return known.path
    }
}
