import Imaging

/// What analysis observed of one video, before any judging: its facts and every sampled frame's
/// measures and faces (with their embeddings). A one-shot run judges it at once; the library
/// keeps it, so that a change of references or rules is judged again without decoding a frame.
public struct ObservedVideo: Sendable {
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
    /// How it was observed: a scan with other settings observes it again.
    public var method: ObservationMethod
    /// Time order. With `stretches`, the frames outside them are the keyframes of the first look
    /// (evidence of who is in the video, no window of their own).
    public var frames: [ObservedFrame]
    /// The stretches sampled at the full rate after a look at the keyframes (see `Refinement`);
    /// nil when the whole video was.
    public var stretches: [Range<Double>]?
    /// What the person should hear of it, one line each: a capture date passed over, the file cut
    /// short, damage the frames stop at. Kept with it, so that every command can say so.
    public var notes: [String]
    /// Where its sound has speech; nil: no sound, or observed before sound was listened to.
    public var speech: SpeechMap?
    /// Times of frames between samples where a face that counts has its eyes closed: a one-shot
    /// run reads every frame of the seconds it is about to choose (`EyesBetweenSamples`); not kept.
    public var closedEyes: [Double] = []

    public init(
        contentKey: String, path: String, size: Int64, modified: Double, capture: CaptureDate, duration: Double, width: Int,
        height: Int, rotation: Int, codec: String, hdr: Bool, recording: RecordingFacts? = nil, method: ObservationMethod,
        frames: [ObservedFrame], stretches: [Range<Double>]? = nil, notes: [String] = [], speech: SpeechMap? = nil
    ) {
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
        self.method = method
        self.frames = frames
        self.stretches = stretches
        self.notes = notes
        self.speech = speech
    }

    /// The same video with every frame kept taken as sampled (keyframes outside the stretches
    /// too): for a second the stretches cannot hold.
    public var sampledWhole: ObservedVideo {
        var whole = self
        whole.stretches = nil
        return whole
    }

    /// Each frame's change from the sample `interval` before it, where there is one, from their
    /// signatures; the signatures are then let go.
    public mutating func takeShotChanges(interval: Double) {
        for i in frames.indices {
            if i > 0, let a = frames[i - 1].signature, let b = frames[i].signature, frames[i].time - frames[i - 1].time <= 1.5 * interval {
                frames[i].shotChange = b.change(from: a)
            }
        }
        for i in frames.indices { frames[i].signature = nil }
    }

    /// The frames sampled at the full rate and the keyframes seen outside them (`stretches`).
    public var sampledAndGlimpsed: (sampled: [ObservedFrame], glimpses: [ObservedFrame]) {
        guard let stretches else { return (frames, []) }
        let inside = frames.map { f in stretches.contains { $0.contains(f.time) } }
        return (zip(frames, inside).filter(\.1).map(\.0), zip(frames, inside).filter { !$0.1 }.map(\.0))
    }
}

/// One sampled frame: its picture measures and every face found in it.
public struct ObservedFrame: Sendable, Equatable {
    public var time: Double
    public var aesthetics: Aesthetics
    public var sharpness: Float
    public var faces: [ObservedFace]
    /// How much the picture changed from the sample one interval before (see `ShotSignature`);
    /// nil for the first of a run of samples.
    public var shotChange: Float?
    /// The picture's signature, until the change from the sample after it is taken (not kept).
    public var signature: ShotSignature?

    public init(
        time: Double, aesthetics: Aesthetics, sharpness: Float, faces: [ObservedFace], shotChange: Float? = nil,
        signature: ShotSignature? = nil
    ) {
        self.time = time
        self.aesthetics = aesthetics
        self.sharpness = sharpness
        self.faces = faces
        self.shotChange = shotChange
        self.signature = signature
    }
}

/// A face as kept: box in the video's upright pixels, detector score, quality, embedding.
public struct ObservedFace: Sendable, Equatable {
    public var box: Box
    public var score: Float
    public var quality: Float
    public var embedding: Embedding?
    /// Set when the embedding is borrowed from the same face a moment earlier (face following),
    /// not its own.
    public var borrowedFrom: BorrowedEmbedding?
    public var borrowed: Bool { borrowedFrom != nil }
    /// How open its eyes are (see `EyeOpenness`): its more visible eye's; nil when not read.
    public var eyes: Float?
    /// Its more visible eye cut from the picture as the eye model reads it, until read (a one-shot
    /// run reads only those of the seconds it comes to; not kept).
    public var eyeCrop: RGBImage?
    /// Its other eye, likewise: a low reading of the first is confirmed by it (`EyeReader.confirmed`).
    public var otherEyeCrop: RGBImage?
    /// The detector's five points in the analysed picture, where its eyes count: a one-shot run
    /// follows the eyes by them between samples (not kept).
    public var landmarks: [Point]?

    public init(box: Box, score: Float, quality: Float, embedding: Embedding?, borrowedFrom: BorrowedEmbedding? = nil, eyes: Float? = nil) {
        self.box = box
        self.score = score
        self.quality = quality
        self.embedding = embedding
        self.borrowedFrom = borrowedFrom
        self.eyes = eyes
    }
}

/// Whose embedding a followed face borrows: face `face` of the frame `framesBack` frames
/// earlier in the same video, which was embedded itself, and how alike the two aligned crops
/// looked (`FaceTracker.Look`: 1 is the same picture). Relative, so frames keep it when passes
/// are put together.
public struct BorrowedEmbedding: Sendable, Equatable {
    public var framesBack: Int
    public var face: Int
    public var likeness: Float

    public init(framesBack: Int, face: Int, likeness: Float) {
        self.framesBack = framesBack
        self.face = face
        self.likeness = likeness
    }
}

/// How a video was observed: the settings that decide which frames were sampled, at what size
/// faces were looked for, and which day a UTC time falls on. The library keeps it beside each
/// video, so a scan with other settings knows what it would observe differently.
public struct ObservationMethod: Codable, Equatable, Sendable {
    /// The analysis engine's version: bumped whenever frames would be measured differently
    /// (models, scores, sampling rules).
    public var version: Int
    /// Frames sampled per second of video.
    public var sampleRate: Double
    /// Long side, in pixels, of the frames faces were looked for in.
    public var analysisSide: Int
    /// The time zone UTC capture times and file times were read in (an identifier).
    public var timeZone: String
    /// Every face was embedded itself; false: faces that stayed put were followed and borrowed
    /// an embedding (see `ObservedFace.borrowedFrom`).
    public var everyFace: Bool
    /// Looked at by its keyframes first and sampled at the full rate only in the stretches they
    /// pointed at (`ObservedVideo.stretches`); false: every second was sampled.
    public var keyframeLook: Bool

    public init(version: Int, sampleRate: Double, analysisSide: Int, timeZone: String, everyFace: Bool, keyframeLook: Bool = false) {
        self.version = version
        self.sampleRate = sampleRate
        self.analysisSide = analysisSide
        self.timeZone = timeZone
        self.everyFace = everyFace
        self.keyframeLook = keyframeLook
    }

    /// What in `other` would make these frames wrong: another engine, rate or side means
    /// observing again; another time zone only dating again.
    public func differences(from other: ObservationMethod) -> (frames: [String], zone: Bool) {
        var frames: [String] = []
        if version != other.version { frames.append("analysis version \(version), now \(other.version)") }
        if sampleRate != other.sampleRate { frames.append("sampled at \(Self.number(sampleRate))/s, now \(Self.number(other.sampleRate))/s") }
        if analysisSide != other.analysisSide { frames.append("faces looked for at \(analysisSide) px, now \(other.analysisSide) px") }
        // Followed faces are what every face embedded gives, but for a few near a line: only a
        // scan asking for every face observes them again.
        if !everyFace && other.everyFace { frames.append("faces followed, now every face embedded") }
        // Likewise a look at the keyframes: only a scan asking for full passes samples it whole.
        if keyframeLook && !other.keyframeLook { frames.append("looked at by its keyframes first, now sampled whole") }
        return (frames, timeZone != other.timeZone)
    }

    private static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
