import Foundation
import Imaging

/// One day's clip in the film: which video, from when, and which part of the picture.
public struct FilmSegment: Codable, Equatable, Sendable {
    public var day: String
    public var video: String
    public var start: Double
    /// Crop in the video's upright pixels.
    public var crop: Box
    /// Seconds of the video per second of film: above 1 for slow motion stored slowed down,
    /// played faster so that the clip is real time (nil: 1).
    public var speed: Double?
    /// Who is in it, as the caption may name them (none known: nil).
    public var names: [String]?
    /// Where its sound has speech, in seconds of the video (not listened to: nil), so music
    /// under the film is lowered there (`Ducking`).
    public var speech: [Range<Double>]?
    /// True when `video` is a photo, held for the second with a slow push (see `PhotoSecond`).
    public var photo: Bool?
    /// One crop per frame of the clip, in the video's upright pixels, for a picture that moves
    /// with the person (`FilmOptions.Align`); a crop may reach past the picture's edges (see
    /// `MovingCrop` for what the film shows there). Nil: `crop` for every frame.
    public var crops: [Box]?

    public init(
        day: String, video: String, start: Double, crop: Box, speed: Double? = nil, names: [String]? = nil, speech: [Range<Double>]? = nil,
        photo: Bool? = nil, crops: [Box]? = nil
    ) {
        self.speech = speech
        self.photo = photo
        self.crops = crops
        self.day = day
        self.video = video
        self.start = start
        self.crop = crop
        self.speed = speed
        self.names = names
    }

    /// The fastest a clip is played: slow motion sped up further is no longer real time anyone watches.
    public static let maxSpeed = 16.0

    public var isPhoto: Bool { photo == true }

    /// `speed` where it means something: finite, at least 1 and at most `maxSpeed`, else 1.
    public var playbackSpeed: Double {
        guard let speed, speed.isFinite, speed > 1 else { return 1 }
        return min(speed, Self.maxSpeed)
    }

    /// For each of a clip's `count` frames at `fps`, the index in `times` (the presentation times
    /// of the frames decoded from `start` on, ascending) of the picture it shows: the one on
    /// screen at `start + k * speed / fps`, allowing a quarter frame for rounded timestamps; the
    /// first picture also stands for any instant before it. The renderer cuts frames this way,
    /// so a plan made per frame lines up with what the film shows.
    public func shownPictures(times: [Double], count: Int, fps: Int) -> [Int] {
        guard !times.isEmpty else { return [] }
        let step = playbackSpeed / Double(max(fps, 1))
        var i = 0
        return (0..<count).map { k in
            let t = start + Double(k) * step + 0.25 * step
            while i + 1 < times.count && times[i + 1] <= t { i += 1 }
            return i
        }
    }

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
