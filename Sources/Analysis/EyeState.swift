/// Whether a face's eyes are open, from the openness the eye model measures (`EyeOpenness.mean`:
/// the eyelids' gap over the eye's width, both eyes' mean, as the library keeps it).
///
/// Eyes differ: a squint that is one person's open eyes is another's half-closed ones. So eyes
/// are closed below an absolute line, or when they dip well under the same face's own open eyes
/// a moment around: a blink's frames between fully open and fully shut are that dip.
public enum EyeState {
    /// Below this mean openness of the two eyes a face counts as blinking, whatever its own open
    /// eyes. Calibrated against MediaPipe FaceMesh's eye aspect ratio (below 0.15 = closed) on
    /// every frame of the shared and sample clips: the best agreement lay between 0.205 and 0.230
    /// (docs/architecture.md, "Open eyes").
    public static let closedBelow: Float = 0.22
    /// A reading under this share of the face's open level is a blink under way.
    public static let dipBelow: Float = 0.8
    /// The open level: this quantile of the face's readings within this many seconds either side,
    /// from at least this many readings.
    public static let openLevelShare: Float = 0.9, openLevelSeconds = 3.0, openLevelReadings = 4

    public static func isClosed(_ openness: Float) -> Bool { openness < closedBelow }

    /// `open`: the face's own open level, when known.
    public static func isClosed(_ openness: Float, open: Float?) -> Bool {
        isClosed(openness) || open.map { openness < dipBelow * $0 } == true
    }
}
