import Foundation
import GlimtCore

/// What a file says about how it was recorded, read without decoding a picture: the inputs of
/// `Recording.classify`. Kept in the library, so the rules can change without decoding again.
public struct RecordingFacts: Codable, Equatable, Sendable {
    public var fileName: String
    public var duration: Double
    /// Frames per second as the file plays.
    public var frameRate: Double
    /// The picture as shown (upright), in pixels; 0 when unknown.
    public var width: Int
    public var height: Int
    /// Frames per second the camera captured, when the file says (Android's
    /// `com.android.capture.fps`): above `frameRate` for slow motion stored slowed down, below
    /// it for a time-lapse.
    public var captureRate: Double?
    /// Apple's `com.apple.quicktime.content.identifier`: pairs a Live Photo's movie with its still.
    public var contentIdentifier: Bool
    /// A `com.apple.quicktime.still-image-time` metadata track: where a Live Photo's still was taken.
    public var stillImageTime: Bool
    /// A photo with the same name beside the file (`IMG_0042.HEIC` beside `IMG_0042.MOV`).
    public var stillBeside: String?
    /// The camera metadata found (make, model, location, ...); none in screen recordings.
    public var cameraTags: [String]
    /// A photo (one picture, duration 0), not a video; nil for a video.
    public var photo: Bool?
    /// A photo's movie of the same name beside it (`IMG_0042.MOV` beside `IMG_0042.HEIC`): a
    /// Live Photo, whose still and movie are one moment.
    public var movieBeside: String?

    public init(
        fileName: String, duration: Double, frameRate: Double, width: Int = 0, height: Int = 0, captureRate: Double? = nil,
        contentIdentifier: Bool = false, stillImageTime: Bool = false, stillBeside: String? = nil, cameraTags: [String] = [],
        photo: Bool? = nil, movieBeside: String? = nil
    ) {
        self.photo = photo
        self.movieBeside = movieBeside
        self.fileName = fileName
        self.duration = duration
        self.frameRate = frameRate
        self.width = width
        self.height = height
        self.captureRate = captureRate
        self.contentIdentifier = contentIdentifier
        self.stillImageTime = stillImageTime
        self.stillBeside = stillBeside
        self.cameraTags = cameraTags
    }

    /// Shaped like a screen, not a camera picture: a phone's tall screen (2:1 and longer; camera
    /// video is 16:9 or 4:3) or a computer's 16:10.
    public var isScreenShaped: Bool {
        guard width > 0, height > 0 else { return false }
        let ratio = Double(max(width, height)) / Double(min(width, height))
        return ratio >= 2 || abs(ratio - 1.6) < 0.01
    }
}

/// What kind of recording a video is, and whether it competes for its day. The rules, in order:
///
/// | kind | recognised by | in the film |
/// |---|---|---|
/// | `live-photo` | at most 4 s long, and a Live Photo's pairing identifier, a still-image-time track, or a photo of the same name beside it | set aside unless Live Photos are included |
/// | `screen-recording` | no camera metadata, and a screen recorder's file name, or at least half its sampled frames judged `screen`, or a screen-shaped picture (2:1 and longer, or 16:10) with at least a quarter of them | set aside unless screen recordings are included |
/// | `slow-motion` | captured at 1.5x or more the rate it plays at (a file stored slowed down), or 90 fps and up | competes; its second is a second of real time |
/// | `time-lapse` | captured at 1/1.5 or less the rate it plays at | competes; its second is a second as it plays: one moment of the day |
/// | `camera` | anything else | competes |
/// | `photo` | a photo (JPEG, HEIC...) scanned into the library | fills a day without video (see `PhotoUse`) |
/// | `live-photo-still` | a photo with a movie of the same name beside it | as a photo, unless Live Photos' movies compete: then the movie stands for the moment |
public struct Recording: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case camera
        case livePhoto = "live-photo"
        case screenRecording = "screen-recording"
        case slowMotion = "slow-motion"
        case timeLapse = "time-lapse"
        case photo
        case livePhotoStill = "live-photo-still"

        /// One picture, not a video.
        public var isPhoto: Bool { self == .photo || self == .livePhotoStill }
    }

    public var kind: Kind
    /// Why it is that kind (nil for an ordinary camera video).
    public var reason: String?
    /// Seconds of the file per second of real time: above 1 only for slow motion stored slowed
    /// down, whose chosen second is then that many seconds of the file, played faster.
    public var speed: Double

    public init(kind: Kind, reason: String? = nil, speed: Double = 1) {
        self.kind = kind
        self.reason = reason
        self.speed = speed
    }

    public static let camera = Recording(kind: .camera)

    /// The longest movie taken for a Live Photo's (iPhones keep 1.5 to 3 s).
    public static let livePhotoMaxDuration = 4.0
    /// The share of sampled frames judged `screen` that makes a camera-less video a screen
    /// recording; a screen-shaped one needs `screenShareWhenScreenShaped`.
    public static let screenShare = 0.5
    public static let screenShareWhenScreenShaped = 0.25
    /// Slow motion played back faster than this is no longer real time anyone would watch (the
    /// film plays no clip faster either: `FilmSegment.maxSpeed`, a layer above, says the same).
    public static let maxSpeed = 16.0

    /// File names screen recorders give (iOS, macOS in English and German, Android, Samsung,
    /// Linux recorders), matched case-insensitively at the start of the name.
    public static let screenRecorderNames: [String] = [
        "rpreplay_", "screen recording", "screen_recording", "screenrecording", "screenrecord", "screen-recording",
        "simulator screen recording", "bildschirmaufnahme", "kazam_screencast", "simplescreenrecorder", "screencast",
    ]

    /// The kind of a video from its facts and, for screen recordings, its analysed frames.
    public static func classify(_ facts: RecordingFacts, frames: [FrameAnalysis]) -> Recording {
        if facts.photo == true {
            guard let movie = facts.movieBeside else { return Recording(kind: .photo) }
            return Recording(kind: .livePhotoStill, reason: "a Live Photo's still (its movie \(ShownPath.escaped(movie)) is beside it)")
        }
        if facts.duration <= livePhotoMaxDuration {
            let signs = [
                facts.contentIdentifier ? "a Live Photo pairing identifier" : nil,
                facts.stillImageTime ? "a still-image-time track" : nil,
                facts.stillBeside.map { "the photo \(ShownPath.escaped($0)) beside it" },
            ].compactMap { $0 }
            if !signs.isEmpty {
                return Recording(
                    kind: .livePhoto,
                    reason: String(format: "a Live Photo's movie (%.1f s, ", facts.duration)
                        + signs.joined(separator: ", ") + "): the moment is the photo, not a video taken")
            }
        }
        if facts.cameraTags.isEmpty {
            let name = facts.fileName.lowercased()
            if let prefix = screenRecorderNames.first(where: { name.hasPrefix($0) }) {
                return Recording(kind: .screenRecording, reason: "no camera metadata and a screen recorder's name ('\(prefix)...')")
            }
            let screens = frames.filter { $0.aesthetics.rejected == "screen" }.count
            let needed = facts.isScreenShaped ? screenShareWhenScreenShaped : screenShare
            if !frames.isEmpty, screens > 0, Double(screens) >= needed * Double(frames.count) {
                let shape = facts.isScreenShaped ? ", a \(facts.width)x\(facts.height) screen-shaped picture," : ""
                return Recording(
                    kind: .screenRecording,
                    reason:
                        "no camera metadata\(shape) and \(screens) of \(frames.count) sampled frames look like a screen (flat colours and sharp text edges)"
                )
            }
        }
        if let capture = facts.captureRate, capture > 0, facts.frameRate > 0 {
            let ratio = capture / facts.frameRate
            if ratio >= 1.5 {
                let speed = min(ratio, maxSpeed)
                return Recording(
                    kind: .slowMotion,
                    reason: String(
                        format: "captured at %g fps and stored to play at %g fps: a real second is %.3g s of the file, played %.3gx", capture,
                        facts.frameRate, speed, speed),
                    speed: speed)
            }
            if ratio <= 1 / 1.5 {
                return Recording(
                    kind: .timeLapse,
                    reason: String(
                        format: "captured at %g fps and played at %g fps: a time-lapse, one moment of its day as it plays", capture, facts.frameRate))
            }
        }
        if facts.frameRate >= 90 {
            return Recording(
                kind: .slowMotion,
                reason: String(
                    format: "%g fps, stored in real time: the film shows every %dth frame", facts.frameRate.rounded(),
                    Int((facts.frameRate / 30).rounded())))
        }
        return .camera
    }
}

/// Which kinds of recording compete for a day (the others are set aside, with their reason).
public struct RecordingChoice: Sendable, Equatable {
    public var livePhotos = false
    public var screenRecordings = false

    public init(livePhotos: Bool = false, screenRecordings: Bool = false) {
        self.livePhotos = livePhotos
        self.screenRecordings = screenRecordings
    }

    /// Why `recording` does not compete, or nil when it does.
    public func setAside(_ recording: Recording) -> String? {
        switch recording.kind {
        case .livePhoto where !livePhotos: return "a Live Photo's movie (--live-photos includes them)"
        case .screenRecording where !screenRecordings: return "a screen recording (--screen-recordings includes them)"
        // Counted once: the movie, included, stands for the moment.
        case .livePhotoStill where livePhotos: return "a Live Photo's still; its movie competes (--live-photos)"
        default: return nil
        }
    }
}
