import Imaging

/// One face in a picture, with everything later stages use.
public struct FaceRecord: Sendable {
    public var face: DetectedFace
    public var quality: FaceQuality
    /// The 112x112 crop aligned to SFace's template.
    public var crop: RGBImage
    /// L2-normalised SFace embedding, when asked for.
    public var embedding: Embedding?

    public init(face: DetectedFace, quality: FaceQuality, crop: RGBImage, embedding: Embedding? = nil) {
        self.face = face
        self.quality = quality
        self.crop = crop
        self.embedding = embedding
    }
}
