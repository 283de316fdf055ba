/// One face as analysis keeps it (no pixels).
public struct FaceInFrame: Codable, Equatable, Sendable {
    public var box: Box
    public var score: Float
    public var quality: Float
    /// Best cosine against the references (nil without references).
    public var cosine: Float?
}

/// Everything analysis learned about one sampled frame.
public struct FrameAnalysis: Codable, Equatable, Sendable {
    public var time: Double
    public var faces: [FaceInFrame]
    public var aesthetics: Aesthetics
    public var sharpness: Float
    /// The clearest face's quality (0 without faces).
    public var clearFace: Float
    /// Index in `faces` of the frame's subject: the child (best-matching face at the match
    /// threshold) with references, else the most prominent face (size x quality).
    public var subject: Int?
    /// Cosine of the best-matching face: only that face counts for identity.
    public var bestCosine: Float?
    public var score: FrameScore

    /// Scores a frame from its faces and picture measures. `references` empty means no identity.
    public static func evaluate(time: Double, faces: [FaceInFrame], aesthetics: Aesthetics, sharpness: Float,
                                hasReferences: Bool, thresholds: Identity.Thresholds) -> FrameAnalysis {
        let clearFace = faces.map(\.quality).max() ?? 0
        var subject: Int?
        var bestCosine: Float?
        if hasReferences {
            // Only the best-matching face of the frame counts, whatever the others look like.
            if let best = faces.indices.max(by: { (faces[$0].cosine ?? -1) < (faces[$1].cosine ?? -1) }) {
                bestCosine = faces[best].cosine
                if let c = bestCosine, c >= thresholds.match { subject = best }
            }
        } else {
            subject = faces.indices.max { faces[$0].box.area * faces[$0].quality < faces[$1].box.area * faces[$1].quality }
        }
        let identity: Float? = hasReferences ? Identity.score(cosine: bestCosine ?? 0, thresholds: thresholds) : nil
        return FrameAnalysis(time: time, faces: faces, aesthetics: aesthetics, sharpness: sharpness, clearFace: clearFace,
                             subject: subject, bestCosine: bestCosine,
                             score: FrameScore(aesthetics: aesthetics.value, sharpness: sharpness, face: clearFace, identity: identity))
    }
}
