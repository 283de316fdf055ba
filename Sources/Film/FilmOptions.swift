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
