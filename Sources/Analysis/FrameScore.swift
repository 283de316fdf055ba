/// A frame's score: 35 % how good it looks, 20 % sharpness, 45 % whether there is a clear face;
/// with references, that counts 40 % and "is it the person" 60 %, so an ordinary frame of the
/// person beats a lovely frame of someone else.
public struct FrameScore: Codable, Equatable, Sendable {
    public static let aestheticsWeight: Float = 0.35, sharpnessWeight: Float = 0.20, faceWeight: Float = 0.45
    public static let baseWeightWithReferences: Float = 0.40, identityWeight: Float = 0.60

    public var aesthetics: Float
    public var sharpness: Float
    public var face: Float
    /// Identity part in [0, 1] (see `Identity.score`), nil without references.
    public var identity: Float?

    public init(aesthetics: Float, sharpness: Float, face: Float, identity: Float?) {
        self.aesthetics = aesthetics
        self.sharpness = sharpness
        self.face = face
        self.identity = identity
    }

    /// The score without identity.
    public var base: Float { Self.aestheticsWeight * aesthetics + Self.sharpnessWeight * sharpness + Self.faceWeight * face }

    public var total: Float {
        guard let identity else { return base }
        return Self.baseWeightWithReferences * base + Self.identityWeight * identity
    }
}
