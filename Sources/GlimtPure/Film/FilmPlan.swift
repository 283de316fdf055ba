import Foundation

/// How the film looks.
public struct FilmOptions: Sendable {
    public enum Caption: String, Sendable { case date, none }

    public var width: Int = 1080
    public var height: Int = 1920
    public var fps: Int = 30
    /// Length of each day's clip.
    public var seconds: Double = 1.0
    public var audio = true
    public var caption: Caption = .none
    /// x264 constant-rate factor (lower is better and bigger) and speed preset.
    public var quality: Int = 20
    public var preset = "medium"

    public init() {}

    public var aspect: Float { Float(width) / Float(height) }
    public var framesPerClip: Int { max(1, Int((seconds * Double(fps)).rounded())) }
}

/// One day's clip in the film: which video, from when, and which part of the picture.
public struct FilmSegment: Codable, Equatable, Sendable {
    public var day: String
    public var video: String
    public var start: Double
    /// Crop in the video's upright pixels.
    public var crop: Box

    public init(day: String, video: String, start: Double, crop: Box) {
        self.day = day
        self.video = video
        self.start = start
        self.crop = crop
    }
}

/// The film's clips in day order, from picks (of this run or of a saved `analyze --json`).
public enum FilmPlan {
    /// Picks within [from, to] (days as YYYY-MM-DD, both ends included), chronological.
    public static func segments(from picks: [DayPick], fromDay: String? = nil, toDay: String? = nil) -> [FilmSegment] {
        picks.filter { p in (fromDay.map { p.day >= $0 } ?? true) && (toDay.map { p.day <= $0 } ?? true) }
            .sorted { $0.day < $1.day }
            .map { FilmSegment(day: $0.day, video: $0.video, start: $0.start, crop: $0.crop) }
    }

    /// Reads the picks of a saved `glimt-pure analyze --json` result.
    public static func loadPicks(_ path: String) throws -> [DayPick] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw GlimtError("cannot read picks (\(error.localizedDescription))", path: path)
        }
        struct Saved: Decodable { let picks: [DayPick] }
        do {
            return try JSONDecoder().decode(Saved.self, from: data).picks
        } catch {
            throw GlimtError("not an 'analyze --json' result (\(error.localizedDescription))", path: path)
        }
    }
}

extension Framing {
    /// A crop of `aspect` around the same centre as `box`, as large as `box`'s height allows and
    /// kept inside the frame: for rendering picks framed for another shape.
    public static func refit(_ box: Box, aspect: Float, frameWidth w: Int, frameHeight h: Int) -> Box {
        let W = Float(w), H = Float(h)
        var ch = min(box.height, H), cw = ch * aspect
        if cw > W { cw = W; ch = cw / aspect }
        let c = box.center
        let x = min(max(c.x - cw / 2, 0), W - cw), y = min(max(c.y - ch / 2, 0), H - ch)
        return Box(x: x, y: y, width: cw, height: ch)
    }
}
