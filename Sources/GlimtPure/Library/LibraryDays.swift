import Analysis
import AnalysisEngine
import Foundation
import GlimtCore
import Library

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
        /// The content the library knows the video by (pins and exclusions name it).
        public var contentKey: String
        /// The picture as shown (upright) and its length.
        public var width: Int
        public var height: Int
        public var duration: Double
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
        /// The film's crop of its best second (the picked one's for the pick).
        public var crop: Box?
        /// Its best seconds that do not overlap, best first (up to three): the others a person
        /// may choose instead.
        public var windows: [Second]

        public struct Second: Codable, Equatable, Sendable {
            public var start: Double
            public var score: Float
            /// What spoils it as a moment ("eyes closed at 2.4 s", see `Moment`), and why a
            /// better-scoring second was not taken instead.
            public var flaws: [String]?
            public var passedOver: String?
        }
        /// What the person should hear of it, one line each, as its scan said (a capture date
        /// passed over, the file cut short).
        public var notes: [String]
    }

    public var day: String
    /// The person the day is judged for (nil: no one was looked for).
    public var person: String?
    public var status: Status
    public var pick: DayPick?
    public var reason: String?
    public var candidates: [Candidate]
    /// Of the people looked for, those some video of the day shows (for everyone's days; a
    /// person's own days: them, when found).
    public var peopleFound: [String]?
    /// Videos dated only by their file's modification time: a copied file's time is the day of
    /// the copy, so these days deserve a look.
    public var datedByModificationTime: [String]

    /// The report as `days --json` prints it (`JSONOutput`, one line), as `LibraryDays` judged
    /// or kept it: printed as it is rather than encoded again (most of a day's saying). Nil for
    /// a report made otherwise; not kept in sync with changes made to the report after.
    public internal(set) var json: Data?

    private enum CodingKeys: String, CodingKey {
        case day, person, status, pick, reason, candidates, peopleFound, datedByModificationTime
    }

    /// Whether the film shows this day.
    public var inFilm: Bool { pick != nil }
}

/// The library's days judged with today's references and choices, from the stored frames: no
/// decoding, so changing a reference re-scores years in seconds. Streams one day at a time.
public struct LibraryDays {
    public let store: LibraryStore
    public let judgement: Judgement
    /// Whose days these are: their pins and excluded days are the ones honoured.
    public let lookFor: LookFor

    public init(library: URL, rules: Judgement.Rules, lookFor: LookFor) throws {
        store = try LibraryStore(library: library, creating: false)
        judgement = lookFor.judgement(rules)
        self.lookFor = lookFor
    }

    /// What judging the days reads, which no output made from them may replace.
    public var reads: ReadFiles {
        var files = ReadFiles()
        files.add(store)
        files.add(lookFor.people.flatMap(\.references).map(\.photo), as: "a reference photo")
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

    /// The store's id of the person judged (their choices), `LibraryStore.noOne` for no one,
    /// `LibraryStore.everyone` for the family film.
    public var personID: Int { lookFor.everyone ? LibraryStore.everyone : lookFor.judged?.id ?? LibraryStore.noOne }

    public func choices() throws -> LibraryStore.Choices { try store.choices(person: personID) }

    /// How many days with video or photos a run judged, and how many it found kept from an
    /// earlier run with nothing they depend on changed since (see `JudgedDays`).
    public struct Judged: Sendable, Equatable {
        public var judged = 0
        public var kept = 0
    }

    /// Every day from `from` (default: the first day with a video) to `to` (default: the last),
    /// days without video included, in order.
    @discardableResult
    public func forEachDay(from: String? = nil, to: String? = nil, _ body: (DayReport) throws -> Void) throws -> Judged {
        let stored = try store.days(from: from, to: to)
        guard let first = from ?? stored.first, let last = to ?? stored.last, first <= last else { return Judged() }
        let choices = try self.choices()
        var kept = JudgedDays(self, from: first, to: last, choices: choices)
        defer { kept.save() }
        var withVideo = Set(stored)
        // The days not kept are judged a batch at a time on every core, then said in order; the
        // next batch is judged while one is said.
        var ahead: [String: Result<DayReport, Error>] = [:]
        var next: DaysJudgedAhead?
        defer { next?.stop() }
        // Each day is encoded as `days --json` prints it where it is judged, on every core.
        func judging(_ days: [String]) -> DaysJudgedAhead {
            DaysJudgedAhead(days) { day in
                Result {
                    var r = try report(day, choices: choices)
                    r.json = try? JSONOutput.encoder(pretty: false).encode(r)
                    return r
                }
            }
        }
        // stored[seen] is the day with video reached next: days are walked in order.
        var seen = 0
        var day = first
        while day <= last {
            if withVideo.remove(day) != nil {
                if ahead[day] == nil && !kept.holds(day) {
                    if let batch = next, batch.days.first == day {
                        ahead = batch.wait()
                    } else {
                        next?.stop()
                        let todo = stored[(seen + 1)...].lazy.filter { !kept.holds($0) }
                        ahead = judging([day] + todo.prefix(Self.judgedAhead - 1)).wait()
                    }
                    let after = stored[(seen + 1)...].lazy.filter { !kept.holds($0) && ahead[$0] == nil }.prefix(Self.judgedAhead)
                    next = after.isEmpty ? nil : judging(Array(after))
                }
                seen += 1
                try body(try kept.report(day) { try ahead.removeValue(forKey: day)?.get() ?? report(day, choices: choices) })
            } else {
                try body(
                    DayReport(
                        day: day, person: lookFor.everyone ? "everyone" : lookFor.judged?.name, status: .noVideo, pick: nil, reason: nil,
                        candidates: [], datedByModificationTime: []))
            }
            let next = CalendarDay.next(day)
            guard next > day else { break }
            day = next
        }
        return kept.count
    }

    /// Days judged at once when the cache has none of them: enough for every core to have work.
    static let judgedAhead = 64

    /// `stored` with its second pinned at `start`: the one rule for a usable pin, which `days`,
    /// the film and `pick` (when the pin is made) share. The second must hold a frame of the
    /// analysis; a look's keyframes outside its stretches count there (`judge` judges the video
    /// sampled whole). Nil when no frame lies in it.
    public static func pinned(
        _ stored: ObservedVideo, judged: VideoAnalysis, at start: Double, rules: Judgement.Rules,
        judge: (ObservedVideo) -> VideoAnalysis
    ) -> VideoAnalysis? {
        if let v = judged.pinned(at: start, length: rules.windowLength, aspect: rules.aspect) { return v }
        guard stored.stretches != nil else { return nil }
        return judge(stored.sampledWhole).pinned(at: start, length: rules.windowLength, aspect: rules.aspect)
    }

    /// Why a day's pin is not honoured: its video is gone from the library or now of another
    /// day, or its second holds no analysed frame (a pin from before `pick` held pins to the
    /// rule, or the video analysed again at another rate).
    func whyNotPinned(_ pin: (contentKey: String, start: Double), day: String, stored: [ObservedVideo]) throws -> String {
        guard let video = stored.first(where: { $0.contentKey == pin.contentKey }) else {
            if let now = try store.day(contentKey: pin.contentKey) { return "its pinned video is now a video of \(now)" }
            return "its pinned video is no longer in the library"
        }
        return String(format: "its pinned second (at %.2f s of ", pin.start) + video.path + ") has no analysed frame"
    }

    public func report(_ day: String, choices: LibraryStore.Choices) throws -> DayReport {
        let stored = try store.videos(onDay: day)
        let names = lookFor.people.filter { !$0.references.isEmpty }.map(\.name)
        // The family film judges each video for every person and takes the second with most of
        // them; a person's own days judge it for them alone.
        func together(_ video: ObservedVideo) -> FamilyDay.Together {
            FamilyDay.together(
                FamilyDay.Video(
                    byPerson: lookFor.people.filter { !$0.references.isEmpty }.indices.map { p in
                        LookFor(people: lookFor.people.filter { !$0.references.isEmpty }, person: p).judgement(judgement.rules).analysis(of: video)
                    }), names: names, rules: judgement.rules)
        }
        let family = lookFor.everyone ? stored.map(together) : nil
        let judged = family?.map(\.analysis) ?? stored.map { judgement.analysis(of: $0) }
        func pinned(_ i: Int, at start: Double) -> (analysis: VideoAnalysis, family: FamilyDay.Together?)? {
            var again: FamilyDay.Together?
            let v = Self.pinned(stored[i], judged: judged[i], at: start, rules: judgement.rules) { whole in
                guard lookFor.everyone else { return judgement.analysis(of: whole) }
                again = together(whole)
                return again!.analysis
            }
            return v.map { ($0, again ?? family?[i]) }
        }
        let keys = stored.map(\.contentKey)
        let competing = zip(judged, keys).filter { !choices.excludedVideos.contains($0.1) }.map(\.0)
        let hasReferences = !judgement.references.isEmpty || lookFor.everyone
        var status: DayReport.Status
        var pick: DayPick?
        var reason: String?
        // Whether the pick's own second shows the person judged (what its caption may say).
        var shown = false
        if choices.excludedDays.contains(day) {
            status = .excluded
            reason = "excluded (glimt-pure include \(day) brings it back)"
        } else if let pin = choices.pins[day], let i = keys.firstIndex(of: pin.contentKey), let v = pinned(i, at: pin.start),
            var p = DayPick(day: day, v.analysis, candidates: judged.count)
        {
            status = .pinned
            if let family = v.family { p.people = FamilyDay.present(in: v.analysis, byPerson: family.video, names: names) }
            if let w = v.analysis.window, !lookFor.everyone {
                // A pin is said with its own second's evidence: the video's may be another second's, or another person's.
                p.identity = v.analysis.evidence(in: w, thresholds: judgement.rules.thresholds)
                shown = v.analysis.shows(in: w)
            }
            pick = p
        } else {
            if lookFor.everyone {
                let videos = keys.indices.filter { !choices.excludedVideos.contains(keys[$0]) }.map { family![$0] }
                (pick, reason) = FamilyDay.pick(day: day, videos, names: names, rules: judgement.rules)
            } else {
                let (picks, skipped) = DayPick.pick(
                    competing, hasReferences: hasReferences, withoutPerson: judgement.rules.withoutPerson, person: lookFor.judged?.name,
                    photos: judgement.rules.photos)
                pick = picks.first
                reason = skipped[day]
                if let p = pick, let v = competing.first(where: { $0.path == p.video }), let w = v.window { shown = v.shows(in: w) }
            }
            if competing.isEmpty { reason = "every video of it is excluded" }
            if let p = pick {
                let found = lookFor.everyone ? !(p.people ?? []).isEmpty : p.identity?.containsPerson == true
                status = hasReferences && !found ? .withoutPerson : .picked
            } else {
                status = competing.contains { $0.window != nil } ? .noPerson : .tooShort
                if !competing.isEmpty && competing.allSatisfy({ $0.setAside != nil }) { status = .setAside }
                if competing.isEmpty { status = .excluded }
            }
            if let pin = choices.pins[day] { reason = try whyNotPinned(pin, day: day, stored: stored) + "; " + (reason ?? "picked automatically") }
        }
        // Who is in a person's own pick is that person, when its second shows them: the film's caption names no one else.
        if let name = lookFor.judged?.name, judgement.hasReferences, pick != nil { pick?.people = shown ? [name] : [] }
        let candidates = zip(judged, keys).map { v, key in
            let windows = BestWindow.top(
                3, times: v.frames.map(\.time), scores: v.frames.map(\.score.total), duration: v.duration,
                length: judgement.rules.windowLength * v.recording.speed, sampled: v.stretches, marks: v.moment)
            return DayReport.Candidate(
                video: v.path, contentKey: key, width: v.width, height: v.height, duration: v.duration,
                start: v.window?.start, score: v.window?.meanScore, parts: v.windowParts, containsPerson: v.identity?.containsPerson,
                excluded: choices.excludedVideos.contains(key), picked: pick?.video == v.path,
                kind: v.recording.kind, kindReason: v.recording.reason, setAside: v.setAside, dateSource: v.capture.source,
                crop: pick?.video == v.path ? pick?.crop : v.crop?.box,
                windows: windows.map { .init(start: $0.start, score: $0.meanScore, flaws: $0.flaws, passedOver: $0.passedOver) },
                notes: v.notes)
        }
        let found: [String]? =
            family.map { f in names.indices.filter { p in f.contains { $0.video.byPerson[p].identity?.containsPerson == true } }.map { names[$0] } }
            ?? lookFor.judged.map { person in judged.contains { $0.identity?.containsPerson == true } ? [person.name] : [] }
        return DayReport(
            day: day, person: lookFor.everyone ? "everyone" : lookFor.judged?.name, status: status, pick: pick, reason: reason,
            candidates: candidates,
            peopleFound: found, datedByModificationTime: stored.filter { $0.capture.source == .modificationTime }.map(\.path))
    }
}
