import Imaging

/// The second chosen for one local calendar day.
public struct DayPick: Codable, Equatable, Sendable {
    public var day: String
    public var video: String
    /// Seconds from the start of the video (presentation time, as the player shows it).
    public var start: Double
    /// Seconds of the file the pick spans (more than the film's clip for slow motion stored slowed down).
    public var length: Double
    /// Seconds of the file per second of the film: above 1 only for slow motion stored slowed
    /// down (nil: 1).
    public var speed: Double?
    public var score: Float
    public var parts: FrameScore
    public var identity: VideoAnalysis.IdentityEvidence?
    /// Crop in the video's upright (display) pixels, and how much it zooms.
    public var crop: Box
    public var zoom: Float
    public var captureTime: String?
    public var dateSource: CaptureDate.Source
    /// Videos of that day that were analysed.
    public var candidates: Int
    /// Who of the library's people is in the chosen second (nil: no one was looked for).
    public var people: [String]?
    /// What spoils the second as a moment, and why a better-scoring one was passed over (see
    /// `Moment`).
    public var flaws: [String]?
    public var passedOver: String?
    /// True when `video` is a photo (held for the second, see `PhotoUse`); nil for a video.
    public var photo: Bool?

    /// What to do with a day whose videos do not show the person of the references.
    public enum WithoutPerson: String, Codable, Sendable, CaseIterable {
        /// No pick: the film skips the day (the default).
        case skip
        /// The best-looking second anyway, marked as without the person.
        case include
    }

    /// Per day, the video whose best window scores highest. With references, only videos that
    /// contain the person compete; a day without them is skipped (with the reason), or with
    /// `withoutPerson: .include` gets its best second anyway (its `identity` says so).
    /// `person` names the person in the reasons ("Emma is in none of its 2 videos").
    /// Photos take the seconds `photos` gives them: by default only a day none of whose videos
    /// can be picked gets one (the person's photo before another video without them).
    public static func pick(
        _ videos: [VideoAnalysis], hasReferences: Bool, withoutPerson: WithoutPerson = .skip,
        person: String? = nil, photos: PhotoUse = .fill
    ) -> (picks: [DayPick], skipped: [String: String]) {
        let byDay = Dictionary(grouping: videos, by: \.capture.day)
        var picks: [DayPick] = []
        var skipped: [String: String] = [:]
        for day in byDay.keys.sorted() {
            let all = byDay[day]!
            // Live Photos' movies and screen recordings are not videos the person took.
            let competing = all.filter { $0.setAside == nil }
            let tiers = photos.tiers(competing) { $0.recording.kind.isPhoto }
            var eligible =
                tiers.lazy.map { $0.filter { $0.window != nil && (!hasReferences || $0.identity?.containsPerson == true) } }
                .first { !$0.isEmpty } ?? []
            if eligible.isEmpty && withoutPerson == .include {
                eligible = tiers.lazy.map { $0.filter { $0.window != nil } }.first { !$0.isEmpty } ?? []
            }
            // Ties go to the earlier capture, then the path: the same input always gives the same film.
            guard
                let best = eligible.max(by: { a, b in
                    if a.window!.meanScore != b.window!.meanScore { return a.window!.meanScore < b.window!.meanScore }
                    return (a.capture.time ?? "", a.path) > (b.capture.time ?? "", b.path)
                }), let pick = DayPick(day: day, best, candidates: all.count)
            else {
                if competing.isEmpty {
                    skipped[day] = "every video of it is set aside: " + Set(all.compactMap(\.setAside)).sorted().joined(separator: "; ")
                    continue
                }
                let offered = tiers.flatMap { $0 }
                if offered.isEmpty {
                    skipped[day] = Self.onlyPhotos
                    continue
                }
                skipped[day] =
                    offered.contains { $0.window != nil }
                    ? "\(person ?? "the person of the references") is in none of its \(Self.counted(offered.map(\.recording.kind.isPhoto)))"
                    : "no video of it is long enough"
                continue
            }
            picks.append(pick)
        }
        return (picks, skipped)
    }
}

extension DayPick {
    /// Why a day of photos alone has no second when photos are left out.
    public static let onlyPhotos = "it has only photos, and --photos never leaves them out"

    /// "2 videos", "1 photo", "1 video and 3 photos": what a day offered, by whether each is a photo.
    public static func counted(_ isPhoto: [Bool]) -> String {
        counted(videos: isPhoto.filter { !$0 }.count, photos: isPhoto.filter { $0 }.count)
    }

    public static func counted(videos: Int, photos: Int) -> String {
        func n(_ k: Int, _ what: String) -> String { "\(k) \(what)\(k == 1 ? "" : "s")" }
        if photos == 0 { return n(videos, "video") }
        return videos == 0 ? n(photos, "photo") : n(videos, "video") + " and " + n(photos, "photo")
    }

    /// The pick of `video`'s window; nil when it has none.
    public init?(day: String, _ video: VideoAnalysis, candidates: Int) {
        guard let window = video.window, let crop = video.crop, let parts = video.windowParts else { return nil }
        self.init(
            day: day, video: video.path, start: window.start, length: window.length,
            speed: video.recording.speed == 1 ? nil : video.recording.speed, score: window.meanScore, parts: parts,
            identity: video.identity, crop: crop.box, zoom: crop.zoom, captureTime: video.capture.time,
            dateSource: video.capture.source, candidates: candidates, flaws: window.flaws, passedOver: window.passedOver,
            photo: video.recording.kind.isPhoto ? true : nil)
    }
}
