/// How open a face's eyes are: per eye, the gap between the eyelids over the eye's width (an eye
/// aspect ratio, about 0.3 for an eye open as in a portrait, below 0.1 for a shut one), and when
/// that is closed.
///
/// Eyes differ: a squint that is one person's open eyes is another's half-closed ones. So eyes
/// are closed below an absolute line, or when they dip well under the same face's own open eyes
/// a moment around: a blink's frames between fully open and fully shut are that dip.
public struct EyeOpenness: Codable, Equatable, Sendable {
    /// The person's right eye (on the image's left in a frontal face), as `DetectedFace.landmarks[0]`.
    public var right: Float
    public var left: Float

    public init(right: Float, left: Float) {
        self.right = right
        self.left = left
    }

    /// Both eyes together: a blink closes both, and one eye seen edge-on or half hidden should not
    /// count as one.
    public var mean: Float { (right + left) / 2 }

    public var closed: Bool { Self.isClosed(mean) }

    /// Below this openness a face counts as blinking, whatever its own open eyes. Calibrated
    /// against MediaPipe FaceMesh's eye aspect ratio (below 0.15 = closed) on every frame of the
    /// shared and sample clips: the best agreement lay between 0.205 and 0.230
    /// (docs/architecture.md, "Open eyes").
    public static let closedBelow: Float = 0.22
    /// A reading under this share of the face's open level is a blink under way.
    public static let dipBelow: Float = 0.7
    /// The open level: this quantile of the face's readings within this many seconds either side,
    /// from at least this many readings. People blink a few times a minute, so most readings are
    /// open; a higher quantile takes the model's noise on one eye for the eye's open level (on a
    /// still photo one eye read 0.23-0.52). The share and the dip were chosen together on the 48
    /// clips of `tools/moment` (8 pairs tried; CHANGELOG.md).
    public static let openLevelShare: Float = 0.75, openLevelSeconds = 3.0, openLevelReadings = 4

    public static func isClosed(_ openness: Float) -> Bool { openness < closedBelow }

    /// A face's open level from its readings at one place: their `openLevelShare` quantile, when
    /// there are at least `openLevelReadings` of them.
    public static func openLevel(of readings: [Float]) -> Float? {
        guard readings.count >= openLevelReadings else { return nil }
        return readings.sorted()[Int(Float(readings.count - 1) * openLevelShare)]
    }

    /// `open`: the face's own open level, when known. Then only a dip under it is closed: a small
    /// or narrow-eyed face can read under the absolute line all along, open.
    public static func isClosed(_ openness: Float, open: Float?) -> Bool {
        guard let open else { return isClosed(openness) }
        return openness < dipBelow * open
    }
}
