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

    public init(
        day: String, video: String, start: Double, crop: Box, speed: Double? = nil, names: [String]? = nil, speech: [Range<Double>]? = nil,
        photo: Bool? = nil
    ) {
        self.speech = speech
        self.photo = photo
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
