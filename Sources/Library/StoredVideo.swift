import Analysis
import Faces
import Imaging

/// What the library keeps of one analysed video: enough to judge it again, with other
/// references or rules, without decoding a frame.
public struct StoredVideo: Sendable {
    public var contentKey: String
    public var path: String
    public var size: Int64
    public var modified: Double
    public var capture: CaptureDate
    public var duration: Double
    public var width: Int
    public var height: Int
    public var rotation: Int
    public var codec: String
    public var hdr: Bool
    /// What its metadata says of how it was recorded (nil: unknown, judged as a camera video).
    public var recording: RecordingFacts?
    /// `StoredVideo.analysisVersion` when analysed; older results are redone.
    public var analysisVersion: Int
    public var frames: [StoredFrame]

    /// Bumped whenever analysis would measure frames differently (sampling, models, scores).
    /// 2: recording facts (Live Photos, screen recordings, slow motion) are kept, and HLG and
    /// PQ frames are judged tone-mapped, as the film shows them.
    public static let analysisVersion = 2

    public init(contentKey: String, path: String, size: Int64, modified: Double, capture: CaptureDate, duration: Double, width: Int,
                height: Int, rotation: Int, codec: String, hdr: Bool, recording: RecordingFacts? = nil, analysisVersion: Int = StoredVideo.analysisVersion,
                frames: [StoredFrame]) {
        self.contentKey = contentKey
        self.path = path
        self.size = size
        self.modified = modified
        self.capture = capture
        self.duration = duration
        self.width = width
        self.height = height
        self.rotation = rotation
        self.codec = codec
        self.hdr = hdr
        self.recording = recording
        self.analysisVersion = analysisVersion
        self.frames = frames
    }
}

/// One sampled frame: its picture measures and every face found in it.
public struct StoredFrame: Sendable, Equatable {
    public var time: Double
    public var aesthetics: Aesthetics
    public var sharpness: Float
    public var faces: [StoredFace]

    public init(time: Double, aesthetics: Aesthetics, sharpness: Float, faces: [StoredFace]) {
        self.time = time
        self.aesthetics = aesthetics
        self.sharpness = sharpness
        self.faces = faces
    }
}

/// A face as kept: box in the video's upright pixels, detector score, quality, embedding.
public struct StoredFace: Sendable, Equatable {
    public var box: Box
    public var score: Float
    public var quality: Float
    public var embedding: Embedding?
    /// The embedding is the same face's from a moment earlier (see `FaceTracker`). Never stored:
    /// the library embeds every face, for references it does not know yet.
    public var echoed: Bool

    public init(box: Box, score: Float, quality: Float, embedding: Embedding?, echoed: Bool = false) {
        self.box = box
        self.score = score
        self.quality = quality
        self.embedding = embedding
        self.echoed = echoed
    }
}
