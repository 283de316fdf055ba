import Imaging

/// What analysis concluded about one video: its day, its frames, whether the person is in it,
/// its best second and the crop for that second.
public struct VideoAnalysis: Codable, Sendable {
    public struct IdentityEvidence: Codable, Equatable, Sendable {
        /// Frames whose best-matching face reached the match threshold / the strong threshold.
        public var framesAtMatch: Int
        public var framesAtStrong: Int
        public var bestCosine: Float
        public var containsPerson: Bool
    }

    /// Seconds per analysed frame spent in each stage, summed over the video.
    public struct StageTimes: Codable, Equatable, Sendable {
        public var decode: Double = 0
        public var convert: Double = 0
        public var detect: Double = 0
        public var alignEmbed: Double = 0
        public var score: Double = 0
        /// Telling whether faces' eyes are open.
        public var eyes: Double = 0
        public var frames: Int = 0
        /// Embeddings made (not borrowed, nor taken from an earlier look at the same picture).
        public var facesEmbedded: Int = 0

        public init() {}

        public mutating func add(_ o: StageTimes) {
            decode += o.decode; convert += o.convert; detect += o.detect; alignEmbed += o.alignEmbed; score += o.score; eyes += o.eyes
            frames += o.frames
            facesEmbedded += o.facesEmbedded
        }
    }

    public var path: String
    public var duration: Double
    public var width: Int
    public var height: Int
    public var rotation: Int
    public var codec: String
    public var hdr: Bool
    public var capture: CaptureDate
    public var frames: [FrameAnalysis]
    public var identity: IdentityEvidence?
    public var window: BestWindow.Window?
    public var crop: Framing.Crop?
    /// The stretches sampled at the full rate after a look at the keyframes (see `Refinement`);
    /// nil when the whole video was.
    public var stretches: [Range<Double>]?
    /// Keyframes looked at to choose the stretches: every other one when those were enough to
    /// say where to look (see `VideoAnalyzer`); nil when the whole video was sampled.
    public var keyframesLooked: Int?
    /// What kind of recording it is (a Live Photo's movie, a screen recording, slow motion, ...).
    public var recording: Recording
    /// Why it does not compete for its day (a Live Photo's movie, a screen recording), or nil.
    public var setAside: String?
    /// What the person should hear of it, one line each (see `ObservedVideo.notes`).
    public var notes: [String]
    /// Where its sound has speech (see `SpeechMap`); nil without sound.
    public var speech: SpeechMap?
    /// Frames between samples seen with closed eyes (see `ObservedVideo.closedEyes`).
    public var closedEyes: [Double] = []
    public var times: StageTimes

    /// Applies the video-level rules to analysed frames: the lucky-frame rule (a video without
    /// the person earns no identity in any frame), the best window, and its framing. `glimpses`
    /// (keyframes outside the fully sampled stretches) count as evidence of who is in the video
    /// but hold no window: one picture in a second is not a second.
    /// `facts` decide the kind of recording (nil: a camera video); a slow-motion file stored
    /// slowed down gets a window of `windowLength` real seconds, so more seconds of the file.
    public static func conclude(
        path: String, duration: Double, width: Int, height: Int, rotation: Int, codec: String, hdr: Bool,
        capture: CaptureDate, frames analysed: [FrameAnalysis], glimpses: [FrameAnalysis] = [],
        stretches: [Range<Double>]? = nil, hasReferences: Bool,
        thresholds: Identity.Thresholds, windowLength: Double, aspect: Float, times: StageTimes,
        facts: RecordingFacts? = nil, choice: RecordingChoice = RecordingChoice(), notes: [String] = [], speech: SpeechMap? = nil,
        closedEyes: [Double] = []
    ) -> VideoAnalysis {
        let recording = facts.map { Recording.classify($0, frames: analysed) } ?? .camera
        // A photo is held on screen for the whole second: its one picture is every frame of it.
        let duration = recording.kind.isPhoto ? windowLength : duration
        var frames = analysed
        var evidence: IdentityEvidence?
        if hasReferences {
            let cosines = (frames + glimpses).map { $0.bestCosine ?? 0 }
            let contains = Identity.containsPerson(frameCosines: cosines, thresholds: thresholds)
            evidence = IdentityEvidence(
                framesAtMatch: cosines.filter { $0 >= thresholds.match }.count,
                framesAtStrong: cosines.filter { $0 >= thresholds.strong }.count,
                bestCosine: cosines.max() ?? 0, containsPerson: contains)
            if !contains {
                // One lucky frame is not the person: no frame of this video counts as them.
                frames = frames.map { $0.withoutPerson() }
            }
        }
        let window = BestWindow.best(
            times: frames.map(\.time), scores: frames.map(\.score.total), duration: duration,
            length: windowLength * recording.speed, sampled: stretches,
            marks: Moment(frames: frames, frameHeight: height, speech: speech, closedEyes: closedEyes))
        var v = VideoAnalysis(
            path: path, duration: duration, width: width, height: height, rotation: rotation, codec: codec, hdr: hdr,
            capture: capture, frames: frames, identity: evidence, window: window, crop: nil, stretches: stretches, keyframesLooked: nil,
            recording: recording, setAside: choice.setAside(recording), notes: notes, speech: speech, times: times)
        v.closedEyes = closedEyes
        v.crop = window.map { v.framing($0, aspect: aspect) }
        return v
    }

    /// The same video with its second chosen by a person: the window at `start`, framed as any
    /// other. Nil when `start` is not inside the video or no frame falls in the window.
    public func pinned(at start: Double, length: Double, aspect: Float) -> VideoAnalysis? {
        guard start >= 0, start < duration,
            let window = BestWindow.at(
                start: start, times: frames.map(\.time),
                scores: frames.map(\.score.total), length: length * recording.speed)
        else { return nil }
        var v = self
        v.window = window
        v.window?.flaws = moment.flaws(of: window, times: frames.map(\.time)).map(\.description)
        v.crop = framing(window, aspect: aspect)
        return v
    }

    /// What makes its seconds whole or not (see `Moment`).
    public var moment: Moment { Moment(frames: frames, frameHeight: height, speech: speech, closedEyes: closedEyes) }

    /// The crop for a window: the biggest cluster of its frames' subjects. A window in which no
    /// frame names the person (a second pinned in a video the rules find them in too rarely, a
    /// day's best second without them) follows the most prominent face instead, as it would
    /// without references, rather than staying in the middle while whoever is there moves.
    func framing(_ window: BestWindow.Window, aspect: Float) -> Framing.Crop {
        func subject(_ f: FrameAnalysis, _ i: Int) -> Framing.Subject {
            Framing.Subject(center: f.faces[i].box.center, faceHeight: f.faces[i].box.height, weight: f.faces[i].quality)
        }
        let inWindow = frames[window.frames]
        var subjects = inWindow.compactMap { f in f.subject.map { subject(f, $0) } }
        if subjects.isEmpty { subjects = inWindow.compactMap { f in FrameAnalysis.mostProminent(f.faces).map { subject(f, $0) } } }
        return Framing.crop(subjects: subjects, frameWidth: width, frameHeight: height, aspect: aspect)
    }

    /// Mean score parts over the window's frames.
    public var windowParts: FrameScore? {
        guard let w = window, !w.frames.isEmpty else { return nil }
        let fs = frames[w.frames]
        let n = Float(fs.count)
        let identity: Float? = fs.first?.score.identity == nil ? nil : fs.reduce(0) { $0 + ($1.score.identity ?? 0) } / n
        return FrameScore(
            aesthetics: fs.reduce(0) { $0 + $1.score.aesthetics } / n, sharpness: fs.reduce(0) { $0 + $1.score.sharpness } / n,
            face: fs.reduce(0) { $0 + $1.score.face } / n, identity: identity)
    }
}
