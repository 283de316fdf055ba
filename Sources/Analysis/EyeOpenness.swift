/// How open a face's eyes are: per eye, the gap between the eyelids over the eye's width (an eye
/// aspect ratio, about 0.3 for an eye open as in a portrait, below 0.1 for a shut one).
public struct EyeOpenness: Codable, Equatable, Sendable {
    /// The person's right eye (on the image's left in a frontal face), as `DetectedFace.landmarks[0]`.
    public var right: Float
    public var left: Float

    /// Below this mean openness of the two eyes a face counts as blinking. Calibrated against MediaPipe
    /// FaceMesh's eye aspect ratio (below 0.15 = closed) on every frame of the shared and sample clips:
    /// the best agreement lay between 0.205 and 0.230 (docs/architecture.md, "Open eyes").
    public static let closedBelow: Float = 0.22

    public init(right: Float, left: Float) {
        self.right = right
        self.left = left
    }

    /// Both eyes together: a blink closes both, and one eye seen edge-on or half hidden should not
    /// count as one.
    public var mean: Float { (right + left) / 2 }

    public var closed: Bool { mean < Self.closedBelow }
}
