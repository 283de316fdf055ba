/// Whether a face's eyes are open, from the openness the eye model measures (the eyelids' gap
/// over the eye's width, the more open eye of the two: a blink closes both, a turned head hides
/// one).
public enum EyeState {
    /// Under this the eyes are closed.
    public static let closedBelow: Float = 0.12

    public static func isClosed(_ openness: Float) -> Bool { openness < closedBelow }
}
