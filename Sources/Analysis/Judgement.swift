import GlimtCore
import Imaging

/// From observed frames to a verdict: each face compared with the references, each frame
/// scored, then the video-level rules (lucky frame, best window, framing). The same code judges
/// a video just decoded and one read back from the library, so a change of references re-scores
/// the library exactly as a new analysis would.
public struct Judgement: Sendable {
    /// Everything a verdict depends on besides the references: the identity thresholds, the
    /// length and shape of the second, which recordings compete, and days without the person.
    public struct Rules: Sendable, Equatable {
        public var thresholds: Identity.Thresholds = .standard
        /// Seconds of the chosen window (the film's clip length).
        public var windowLength = ClipLength.standard
        /// Width / height of the film the crops are framed for.
        public var aspect = Aspect.standard.ratio
        /// Whether Live Photos' movies and screen recordings compete for their days (see `Recording`).
        public var recordings = RecordingChoice()
        /// A day none of whose videos shows the person of the references: skipped, or its best
        /// second anyway.
        public var withoutPerson: DayPick.WithoutPerson = .skip

        public init() {}
    }

    public let references: [Embedding]
    public let rules: Rules

    public init(references: [Embedding], rules: Rules) {
        self.references = references
        self.rules = rules
    }

    public var hasReferences: Bool { !references.isEmpty }

    public func frame(_ f: ObservedFrame) -> FrameAnalysis {
        let faces = f.faces.map { x in
            FaceInFrame(box: x.box, score: x.score, quality: x.quality, cosine: references.isEmpty ? nil : x.embedding.flatMap { $0.bestCosine(references) },
                        borrowed: x.borrowed)
        }
        return FrameAnalysis.evaluate(time: f.time, faces: faces, aesthetics: f.aesthetics, sharpness: f.sharpness,
                                      hasReferences: hasReferences, thresholds: rules.thresholds)
    }

    /// `glimpses`: keyframes seen outside the fully sampled `stretches` (evidence only).
    public func analysis(of v: ObservedVideo, glimpses: [ObservedFrame] = [], stretches: [Range<Double>]? = nil) -> VideoAnalysis {
        VideoAnalysis.conclude(path: v.path, duration: v.duration, width: v.width, height: v.height, rotation: v.rotation, codec: v.codec, hdr: v.hdr,
                               capture: v.capture, frames: v.frames.map(frame), glimpses: glimpses.map(frame), stretches: stretches,
                               hasReferences: hasReferences, thresholds: rules.thresholds,
                               windowLength: rules.windowLength, aspect: rules.aspect, times: VideoAnalysis.StageTimes(),
                               facts: v.recording, choice: rules.recordings, notes: v.notes)
    }
}
