import Analysis
import Film
import Foundation
import GlimtCore

/// From picks (this run's, or a saved `analyze --json` result) to the film's clips.
public enum FilmPlan {
    /// Picks within [from, to] (days as YYYY-MM-DD, both ends included), chronological.
    public static func segments(from picks: [DayPick], fromDay: String? = nil, toDay: String? = nil) -> [FilmSegment] {
        picks.filter { p in (fromDay.map { p.day >= $0 } ?? true) && (toDay.map { p.day <= $0 } ?? true) }
            .sorted { $0.day < $1.day }
            .map { FilmSegment(day: $0.day, video: $0.video, start: $0.start, crop: $0.crop, speed: $0.speed, names: $0.people, photo: $0.photo) }
    }

    /// Reads the picks of a saved `glimt-pure analyze --json` result. A person may have edited
    /// it, so every pick is checked: a real day, a video, a start and a crop that are numbers
    /// and make sense. Any problem is one line naming the file and the pick.
    /// The picks of a saved result. A broken entry (or a second pick for a day) is left out and
    /// named in `problems`, as folder mode leaves out a file it cannot read; a file that is not a
    /// saved result at all is an error.
    public static func loadPicks(_ path: String) throws -> (picks: [DayPick], problems: [FileProblem]) {
        struct Saved: Decodable { let picks: [JSONFile.Entry<DayPick>] }
        let saved = try JSONFile.read(Saved.self, from: path, what: "an 'analyze --json' result").picks
        var picks: [DayPick] = [], problems: [FileProblem] = []
        var days = Set<String>()
        for (i, entry) in saved.enumerated() {
            let p: DayPick
            switch entry.value {
            case .success(let pick): p = pick
            case .failure(let error):
                problems.append(FileProblem(path: path, reason: "\(error.reason); left out"))
                continue
            }
            if let why = problem(p) ?? (days.contains(p.day) ? "day \(p.day) has another pick before it; a day gets one second" : nil) {
                problems.append(FileProblem(path: path, reason: "picks[\(i)] (\(p.day)): \(why); left out"))
                continue
            }
            days.insert(p.day)
            picks.append(p)
        }
        return (picks, problems)
    }

    static func problem(_ p: DayPick) -> String? {
        if let problem = CalendarDay.problem(p.day) { return problem }
        guard !p.video.isEmpty else { return "no video named" }
        guard p.start.isFinite, p.start >= 0 else { return "start \(p.start) is not a time in the video" }
        guard p.length.isFinite, p.length > 0 else { return "length \(p.length) is not a positive number of seconds" }
        if let speed = p.speed, !(speed.isFinite && speed >= 1 && speed <= FilmSegment.maxSpeed) {
            return "speed \(speed) is not between 1 and \(Int(FilmSegment.maxSpeed))"
        }
        guard p.crop.isFinite, p.crop.x >= 0, p.crop.y >= 0, p.crop.width >= 2, p.crop.height >= 2 else {
            return "the crop \(p.crop.x),\(p.crop.y) \(p.crop.width)x\(p.crop.height) is not a rectangle inside a picture"
        }
        return nil
    }
}
