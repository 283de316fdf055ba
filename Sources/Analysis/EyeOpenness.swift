import Analysis

/// How open a face's eyes are: per eye, the gap between the eyelids over the eye's width (an eye
/// aspect ratio, about 0.3 for an eye open as in a portrait, below 0.1 for a shut one).
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

    public var closed: Bool { EyeState.isClosed(mean) }
}
