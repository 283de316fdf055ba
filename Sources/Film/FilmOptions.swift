import GlimtCore
import Imaging
import MediaIO

/// How the film looks.
public struct FilmOptions: Sendable {
    /// What each clip says: its day, who is in it (the people the library found there), both, or nothing.
    public enum Caption: String, Sendable, CaseIterable {
        case date, names
        case dateAndNames = "date+names"
        case none
    }

    public var width = Aspect.standard.defaultSize.width
    public var height = Aspect.standard.defaultSize.height
    public var fps: Int = 30
    public static let frameRates = FilmFormat.frameRates
    /// Length of each day's clip.
    public var seconds = ClipLength.standard
    public var audio = true
    public var caption: Caption = .none
    /// x264 constant-rate factor (lower is better and bigger) and speed preset.
    public var quality = Int(FilmQuality.standard.crf)
    public static let qualities = Int(FilmQuality.crfRange.lowerBound)...Int(FilmQuality.crfRange.upperBound)
    public var preset = FilmQuality.standard.preset
    public static let presets = FilmQuality.presets
    /// Written into the film's container, with glimt's mark (`OwnMark`), which the renderer
    /// always adds, so a film saved among the videos is never read back as one.
    public var tags: [String: String] = [:]

    public init() {}

    public var aspect: Float { Float(width) / Float(height) }

    /// Why the encoder cannot make a film of this size and rate, in one line; nil when it can.
    public var problem: String? { FilmFormat.problem(width: width, height: height, fps: fps) }
    public var framesPerClip: Int { max(1, Int((seconds * Double(fps)).rounded())) }
}
