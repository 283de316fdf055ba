import Foundation
import Analysis
import Film
import GlimtCore

/// From picks (this run's, or a saved `analyze --json` result) to the film's clips.
public enum FilmPlan {
    /// Picks within [from, to] (days as YYYY-MM-DD, both ends included), chronological.
    public static func segments(from picks: [DayPick], fromDay: String? = nil, toDay: String? = nil) -> [FilmSegment] {
        picks.filter { p in (fromDay.map { p.day >= $0 } ?? true) && (toDay.map { p.day <= $0 } ?? true) }
            .sorted { $0.day < $1.day }
            .map { FilmSegment(day: $0.day, video: $0.video, start: $0.start, crop: $0.crop) }
    }

    /// Reads the picks of a saved `glimt-pure analyze --json` result. A person may have edited
    /// it, so every pick is checked: a real day, a video, a start and a crop that are numbers
    /// and make sense. Any problem is one line naming the file and the pick.
    public static func loadPicks(_ path: String) throws -> [DayPick] {
        struct Saved: Decodable { let picks: [DayPick] }
        let picks = try JSONFile.read(Saved.self, from: path, what: "an 'analyze --json' result").picks
        for (i, p) in picks.enumerated() {
            if let why = problem(p) { throw GlimtError("picks[\(i)] (\(p.day)): \(why)", path: path) }
        }
        let days = picks.map(\.day)
        if let twice = Dictionary(grouping: days, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw GlimtError("day \(twice) has two picks; a day gets one second", path: path)
        }
        return picks
    }

    static func problem(_ p: DayPick) -> String? {
        if let problem = CalendarDay.problem(p.day) { return problem }
        guard !p.video.isEmpty else { return "no video named" }
        guard p.start.isFinite, p.start >= 0 else { return "start \(p.start) is not a time in the video" }
        guard p.length.isFinite, p.length > 0 else { return "length \(p.length) is not a positive number of seconds" }
        guard p.crop.isFinite, p.crop.x >= 0, p.crop.y >= 0, p.crop.width >= 2, p.crop.height >= 2 else {
            return "the crop \(p.crop.x),\(p.crop.y) \(p.crop.width)x\(p.crop.height) is not a rectangle inside a picture"
        }
        return nil
    }
}
