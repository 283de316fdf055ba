import GlimtCore
import Imaging
import MediaIO

/// How the film looks.
public struct FilmOptions: Sendable {
    /// What each clip says: its day, who is in it (the people the library found there), the
    /// person's age that day (see `Age`; it needs `born`), the day with either, or nothing.
    public enum Caption: String, Sendable, CaseIterable {
        case date, names
        case dateAndNames = "date+names"
        case age
        case dateAndAge = "date+age"
        case none

        /// Whether it says an age, and so needs a birthday.
        public var showsAge: Bool { self == .age || self == .dateAndAge }
    }

    /// How one day's second gives way to the next: a plain cut, or a quick dip through black
    /// (`fadeSeconds` each side of the join, the sound faded with it).
    public enum Transition: String, Sendable, CaseIterable {
        case cut, fade

        /// Short enough that nearly every frame of a second is still seen whole.
        public static let fadeSeconds = 0.12
    }

    /// Where the person's face sits in each second: `none` keeps each pick's steady crop;
    /// `eyes` follows the person's eyes frame by frame so they stay at one place and size in
    /// every second of every day (`FilmSegment.crops`, planned from the eyes found in the clip).
    public enum Align: String, Sendable, CaseIterable {
        case none, eyes
    }

    public var width = Aspect.standard.defaultSize.width
    public var height = Aspect.standard.defaultSize.height
    public var fps: Int = 30
    public static let frameRates = FilmFormat.frameRates
    /// Length of each day's clip.
    public var seconds = ClipLength.standard
    /// Each clip's own sound (false: the clips are silent, and the film has sound only with `music`).
    public var audio = true
    /// Sound files laid under the whole film, played in turn (`MusicBed`); none: no music.
    public var music: [String] = []
    /// The music's loudness in dBFS (before it is lowered under speech): -20 sits under a phone
    /// video's voices (about -25 to -15 dBFS) without hiding them.
    public var musicLevel = -20.0
    public static let musicLevels = -60.0...0.0
    public var caption: Caption = .none
    public var transition: Transition = .cut
    public var align: Align = .none
    /// The birthday (`YYYY-MM-DD`) the `age` captions count from; nil when none is known.
    public var born: String?
    /// x264 constant-rate factor (lower is better and bigger) and speed preset.
    public var quality = Int(FilmQuality.standard.crf)
    public static let qualities = Int(FilmQuality.crfRange.lowerBound)...Int(FilmQuality.crfRange.upperBound)
    public var preset = FilmQuality.standard.preset
    public static let presets = FilmQuality.presets
    /// Written into the film's container, with glimt's mark (`OwnMark`), which the renderer
    /// always adds, so a film saved among the videos is never read back as one.
    public var tags: [String: String] = [:]

    public init() {}

    /// Whether the film has a sound stream.
    public var hasSound: Bool { audio || !music.isEmpty }

    public var aspect: Float { Float(width) / Float(height) }

    /// Why the encoder cannot make a film of this size and rate, in one line; nil when it can.
    public var problem: String? { FilmFormat.problem(width: width, height: height, fps: fps) }
    public var framesPerClip: Int { max(1, Int((seconds * Double(fps)).rounded())) }
}
