/// Is it the child? Cosine similarity of SFace embeddings against the references, with the
/// seed's rules: the best reference counts, only the best-matching face of a frame counts, and
/// a video contains the child only with two frames at the match threshold or one clearly above.
public enum Identity {
    public struct Thresholds: Codable, Equatable, Sendable {
        /// Same person from here up (sisters in one photo measured 0.43; the same person 0.70+).
        public var match: Float
        /// One frame this high is enough on its own.
        public var strong: Float
        /// Frames at `match` needed when none reaches `strong`.
        public var framesNeeded: Int

        public static let standard = Thresholds(match: 0.45, strong: 0.57, framesNeeded: 2)

        public init(match: Float, strong: Float, framesNeeded: Int) {
            self.match = match
            self.strong = strong
            self.framesNeeded = framesNeeded
        }
    }

    public struct Match: Sendable {
        public let reference: Reference
        public let cosine: Float
    }

    /// The reference this embedding resembles most (the face only has to resemble one of them).
    public static func bestMatch(_ embedding: [Float], references: [Reference]) -> Match? {
        references.map { Match(reference: $0, cosine: Embedding.cosine(embedding, $0.embedding)) }.max { $0.cosine < $1.cosine }
    }

    /// Best cosine of one embedding over all reference embeddings.
    public static func bestCosine(_ embedding: [Float], references: [[Float]]) -> Float {
        references.map { Embedding.cosine(embedding, $0) }.max() ?? 0
    }

    /// Per frame, only the best-matching face counts: its index and cosine (nil without faces).
    public static func bestFace(_ faceEmbeddings: [[Float]], references: [[Float]]) -> (index: Int, cosine: Float)? {
        faceEmbeddings.enumerated().map { ($0.offset, bestCosine($0.element, references: references)) }.max { $0.1 < $1.1 }
    }

    /// The "one lucky frame is not enough" rule over a video's per-frame best cosines.
    public static func containsChild(frameCosines: [Float], thresholds: Thresholds = .standard) -> Bool {
        if frameCosines.contains(where: { $0 >= thresholds.strong }) { return true }
        return frameCosines.filter { $0 >= thresholds.match }.count >= thresholds.framesNeeded
    }

    /// The identity part of a frame's score, in [0, 1]: 0 below the match threshold (a stranger
    /// earns nothing), 0.5 at it, rising linearly to 1 at the strong threshold.
    public static func score(cosine: Float, thresholds: Thresholds = .standard) -> Float {
        guard cosine >= thresholds.match else { return 0 }
        let span = max(thresholds.strong - thresholds.match, 1e-6)
        return min(1, 0.5 + 0.5 * (cosine - thresholds.match) / span)
    }
}
