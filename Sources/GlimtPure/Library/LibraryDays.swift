import Analysis
import Faces
import Foundation
import GlimtCore
import Library
import AnalysisEngine

/// One day of the library as `glimt-pure days` shows it: its pick (automatic or pinned), the
/// other candidates, or why it has none.
public struct DayReport: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// The best second, chosen automatically.
        case picked
        /// The second a person pinned.
        case pinned
        /// No video shows the person; picked anyway (`--without-person include`).
        case withoutPerson = "without-person"
        /// No video shows the person; skipped.
        case noPerson = "no-person"
        /// Excluded by the person.
        case excluded
        /// Only Live Photos' movies and screen recordings (see `Recording`), which do not compete.
        case setAside = "set-aside"
        /// Videos, but none long enough for a clip.
        case tooShort = "too-short"
        /// No video that day.
        case noVideo = "no-video"
    }

    public struct Candidate: Codable, Sendable {
        public var video: String
        /// Its best second and the mean score there (nil when it is too short).
        public var start: Double?
        public var score: Float?
        /// What that score is made of (looks, sharpness, face, person).
        public var parts: FrameScore?
        /// Whether the person of the references is in it (nil without references).
        public var containsPerson: Bool?
        public var excluded: Bool
        public var picked: Bool
        /// How it was recorded, and why it is that kind (see `Recording`).
        public var kind: Recording.Kind
        public var kindReason: String?
        /// Why it does not compete (a Live Photo's movie, a screen recording), or nil.
        public var setAside: String?
        /// How the day was read: which metadata gave it (see `CaptureDate`).
        public var dateSource: CaptureDate.Source
        /// What the person should hear of it, one line each, as its scan said (a capture date
        /// passed over, the file cut short).
        public var notes: [String]
    }

    public var day: String
    public var status: Status
    public var pick: DayPick?
    public var reason: String?
    public var candidates: [Candidate]
    /// Videos dated only by their file's modification time: a copied file's time is the day of
    /// the copy, so these days deserve a look.
    public var datedByModificationTime: [String]

    /// Whether the film shows this day.
    public var inFilm: Bool { pick != nil }
}

/// The library's days judged with today's references and choices, from the stored frames: no
/// decoding, so changing a reference re-scores years in seconds. Streams one day at a time.
public struct LibraryDays {
    public let store: LibraryStore
    public let judgement: Judgement
    /// The references the days are judged with (the library's, or a run's `--ref` photos).
    public let references: [Reference]

    public init(library: URL, rules: Judgement.Rules, references: [Reference]) throws {
        store = try LibraryStore(library: library, creating: false)
        judgement = Judgement(references: references.map(\.embedding), rules: rules)
        self.references = references
    }

    /// What judging the days reads, which no output made from them may replace.
    public var reads: ReadFiles {
        var files = ReadFiles()
        files.add(store)
        files.add(references.map(\.photo), as: "a reference photo")
        return files
    }

    /// Why the scanned video at `path` is no longer what the library analysed: gone, or other
    /// content under its name (its content key differs, whatever its size and time say); nil
    /// while it is. Frames cut or drawn from it would otherwise be another video's, or fail
    /// with a reason that blames the pick.
    public func change(of path: String) -> String? {
        guard let known = try? store.identity(path: path) else { return nil }
        let again = "; scan again: glimt-pure scan FOLDER"
        guard (try? FileStatus(path))?.kind == .file else { return "gone since it was scanned" + again }
        guard (try? ContentKey.of(path: path)) == known.contentKey else { return "changed since it was scanned (its content differs)" + again }
        return nil
    }

    /// Every day from `from` (default: the first day with a video) to `to` (default: the last),
    /// days without video included, in order.
    public func forEachDay(from: String? = nil, to: String? = nil, _ body: (DayReport) throws -> Void) throws {
        let stored = try store.days(from: from, to: to)
        guard let first = from ?? stored.first, let last = to ?? stored.last, first <= last else { return }
        let choices = try store.choices()
        var withVideo = Set(stored)
        var day = first
        while day <= last {
            if withVideo.remove(day) != nil {
                try body(try report(day, choices: choices))
            } else {
                try body(DayReport(day: day, status: .noVideo, pick: nil, reason: nil, candidates: [], datedByModificationTime: []))
            }
            let next = CalendarDay.next(day)
            guard next > day else { break }
            day = next
        }
    }

    public func report(_ day: String, choices: LibraryStore.Choices) throws -> DayReport {
        let stored = try store.videos(onDay: day)
        let judged = stored.map { judgement.analysis(of: $0) }
        let keys = stored.map(\.contentKey)
        let competing = zip(judged, keys).filter { !choices.excludedVideos.contains($0.1) }.map(\.0)
        let hasReferences = !judgement.references.isEmpty
        var status: DayReport.Status
        var pick: DayPick?
        var reason: String?
        if choices.excludedDays.contains(day) {
            status = .excluded
            reason = "excluded (glimt-pure include \(day) brings it back)"
        } else if let pin = choices.pins[day], let i = keys.firstIndex(of: pin.contentKey),
                  let v = judged[i].pinned(at: pin.start, length: judgement.rules.windowLength, aspect: judgement.rules.aspect),
                  let p = DayPick(day: day, v, candidates: judged.count) {
            status = .pinned
            pick = p
        } else {
            let (picks, skipped) = DayPick.pick(competing, hasReferences: hasReferences, withoutPerson: judgement.rules.withoutPerson)
            pick = picks.first
            reason = skipped[day] ?? (competing.isEmpty ? "every video of it is excluded" : nil)
            if let p = pick {
                status = hasReferences && p.identity?.containsPerson != true ? .withoutPerson : .picked
            } else {
                status = competing.contains { $0.window != nil } ? .noPerson : .tooShort
                if !competing.isEmpty && competing.allSatisfy({ $0.setAside != nil }) { status = .setAside }
                if competing.isEmpty { status = .excluded }
            }
            if choices.pins[day] != nil { reason = "its pinned video is no longer in the library; " + (reason ?? "picked automatically") }
        }
        let candidates = zip(judged, keys).map { v, key in
            DayReport.Candidate(video: v.path, start: v.window?.start, score: v.window?.meanScore, parts: v.windowParts, containsPerson: v.identity?.containsPerson,
                                excluded: choices.excludedVideos.contains(key), picked: pick?.video == v.path,
                                kind: v.recording.kind, kindReason: v.recording.reason, setAside: v.setAside, dateSource: v.capture.source,
                                notes: v.notes)
        }
        return DayReport(day: day, status: status, pick: pick, reason: reason, candidates: candidates,
                         datedByModificationTime: stored.filter { $0.capture.source == .modificationTime }.map(\.path))
    }
}
