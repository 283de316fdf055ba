import Imaging

/// One face as analysis keeps it (no pixels).
public struct FaceInFrame: Codable, Equatable, Sendable {
    public var box: Box
    public var score: Float
    public var quality: Float
    /// Best cosine against the references (nil without references).
    public var cosine: Float?
    /// The cosine is the same face's from a moment earlier (its embedding was borrowed, see
    /// `FaceTracker`).
    public var borrowed: Bool
    /// How open the eyes are (see `EyeOpenness`); nil when not measured (a face too small or turned
    /// away, or analysed before eyes were).
    public var eyes: Float?

    public init(box: Box, score: Float, quality: Float, cosine: Float?, borrowed: Bool = false, eyes: Float? = nil) {
        self.box = box
        self.score = score
        self.quality = quality
        self.cosine = cosine
        self.borrowed = borrowed
        self.eyes = eyes
    }

    private enum CodingKeys: String, CodingKey { case box, score, quality, cosine, borrowed, eyes }

    /// Results written before faces were tracked have no `borrowed`: every face was measured.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            box: try c.decode(Box.self, forKey: .box), score: try c.decode(Float.self, forKey: .score),
            quality: try c.decode(Float.self, forKey: .quality), cosine: try c.decodeIfPresent(Float.self, forKey: .cosine),
            borrowed: try c.decodeIfPresent(Bool.self, forKey: .borrowed) ?? false, eyes: try c.decodeIfPresent(Float.self, forKey: .eyes))
    }
}

/// Everything analysis learned about one sampled frame.
public struct FrameAnalysis: Codable, Equatable, Sendable {
    public var time: Double
    public var faces: [FaceInFrame]
    public var aesthetics: Aesthetics
    public var sharpness: Float
    /// The "clear face" part: with references, the person's face quality (0 where they are not
    /// found: a stranger's clear face earns nothing); without, the clearest face's quality.
    public var clearFace: Float
    /// Index in `faces` of the frame's subject: with references, the person (the best-matching
    /// face, when it reaches the match threshold), never a stranger; without references, the
    /// most prominent face (size x quality, steadier than "the clearest").
    public var subject: Int?
    /// Cosine of the best-matching face: only that face counts for identity.
    public var bestCosine: Float?
    public var score: FrameScore
    /// How much the picture changed from the sample before it (see `ShotSignature`); nil for the
    /// first of a run of samples.
    public var shotChange: Float? = nil

    /// Scores a frame from its faces and picture measures.
    public static func evaluate(
        time: Double, faces: [FaceInFrame], aesthetics: Aesthetics, sharpness: Float,
        hasReferences: Bool, thresholds: Identity.Thresholds, shotChange: Float? = nil
    ) -> FrameAnalysis {
        var subject: Int?
        var bestCosine: Float?
        if hasReferences {
            // Only the best-matching face of the frame counts, whatever the others look like.
            if let best = Identity.bestFace(faces.map(\.cosine)) {
                bestCosine = best.cosine
                if Identity.isMatch(best.cosine, thresholds: thresholds) { subject = best.index }
            }
        } else {
            subject = mostProminent(faces)
        }
        let clearFace = hasReferences ? (subject.map { faces[$0].quality } ?? 0) : (faces.map(\.quality).max() ?? 0)
        let identity: Float? = hasReferences ? Identity.score(cosine: bestCosine ?? 0, thresholds: thresholds) : nil
        return FrameAnalysis(
            time: time, faces: faces, aesthetics: aesthetics, sharpness: sharpness, clearFace: clearFace,
            subject: subject, bestCosine: bestCosine,
            score: FrameScore(aesthetics: aesthetics.value, sharpness: sharpness, face: clearFace, identity: identity),
            shotChange: shotChange)
    }

    /// The most prominent face: size x quality, steadier than "the clearest".
    public static func mostProminent(_ faces: [FaceInFrame]) -> Int? {
        faces.indices.max { faces[$0].box.area * faces[$0].quality < faces[$1].box.area * faces[$1].quality }
    }

    /// The same frame judged as one without the person (a video that fails the lucky-frame
    /// rule): no subject, so no clear-face part and no identity.
    public func withoutPerson() -> FrameAnalysis {
        var f = self
        f.subject = nil
        f.clearFace = 0
        f.score.face = 0
        if f.score.identity != nil { f.score.identity = 0 }
        return f
    }
}
