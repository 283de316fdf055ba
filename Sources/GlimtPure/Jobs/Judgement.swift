import Analysis
import Faces
import Library

/// From measured frames to a verdict: each face compared with the references, each frame
/// scored, then the video-level rules (lucky frame, best window, framing). The same code judges
/// a video just decoded and one read back from the library, so a change of references re-scores
/// the library exactly as a new analysis would.
public struct Judgement: Sendable {
    public let references: [Embedding]
    public let options: AnalysisOptions

    public init(references: [Embedding], options: AnalysisOptions) {
        self.references = references
        self.options = options
    }

    public func frame(_ f: StoredFrame) -> FrameAnalysis {
        let faces = f.faces.map { x in
            FaceInFrame(box: x.box, score: x.score, quality: x.quality, cosine: references.isEmpty ? nil : x.embedding.flatMap { $0.bestCosine(references) },
                       echoed: x.echoed)
        }
        return FrameAnalysis.evaluate(time: f.time, faces: faces, aesthetics: f.aesthetics, sharpness: f.sharpness,
                                      hasReferences: !references.isEmpty, thresholds: options.thresholds)
    }

    /// `glimpses`: keyframes seen outside the fully sampled `stretches` (evidence only).
    public func analysis(of v: StoredVideo, glimpses: [StoredFrame] = [], stretches: [Range<Double>]? = nil) -> VideoAnalysis {
        VideoAnalysis.conclude(path: v.path, duration: v.duration, width: v.width, height: v.height, rotation: v.rotation, codec: v.codec, hdr: v.hdr,
                               capture: v.capture, frames: v.frames.map(frame), glimpses: glimpses.map(frame), stretches: stretches,
                               hasReferences: !references.isEmpty,
                               thresholds: options.thresholds,
                               windowLength: options.windowLength, aspect: options.aspect, times: VideoAnalysis.StageTimes(),
                               facts: v.recording, choice: options.recordings)
    }
}
