import Imaging

/// One build of the face models: the models and their kernels compiled for one x86-64 level.
/// Swift compiles a module for one target CPU, so the Debian package's binary holds the face
/// models several times, each a module of its own (Faces, Faces_avx512...) with types of its own;
/// the engine runs the one the CPU runs fastest, and knows it only by these protocols, whose
/// values (faces, crops, embeddings) are this module's and so the same in every build.
public protocol FaceModelsBuild {
    /// The kernels the build's models run on, as GLIMT_KERNELS spells them (`avx512`, `portable`).
    static var kernels: String { get }
    /// The detector, recognition and eye models together, loaded once and shared after.
    static func reader() throws -> any FaceReading
    /// The detector alone, loaded once and shared after.
    static func detector() throws -> any FaceDetecting
    /// The float recognition network, the one every build's int8 embeddings are held to.
    static func floatRecognizer() throws -> any FaceRecognizing
    /// Frees the loaded models' weights and scratch; the next load loads afresh.
    static func unloadAll()
}

/// Finds faces in a picture.
public protocol FaceDetecting: Sendable {
    /// Long side of the image the network sees; nil runs at the image's own size.
    var detectionSize: Int? { get set }
    /// Faces in `image`, highest score first, in the image's own pixel coordinates.
    func detect(_ image: RGBImage) -> [DetectedFace]
}

/// Picture -> faces -> aligned crops -> (optionally) embeddings, and the faces' eyes.
public protocol FaceReading: FaceDetecting {
    /// Whether eyes are read (see `eyes`).
    var readsEyes: Bool { get }
    /// The eye model, loaded on first use; nil when eyes are not read or its weights are missing.
    var eyes: (any EyeReading)? { get }
    /// Loads the recognition model now, off this thread, when it is not loaded yet.
    func prepareRecognizer()
    /// Faces in detector order (highest score first), with their embeddings when `embed`.
    func faces(in image: RGBImage, embed: Bool) -> [FaceRecord]
    /// Aligns and measures detected faces (no embeddings yet).
    func aligned(_ detected: [DetectedFace], in image: RGBImage) -> [FaceRecord]
    /// Embeds the records flagged in `flags`, in batches over `cores` cores.
    func embed(_ records: inout [FaceRecord], where flags: [Bool], cores: Int)
    /// Aligned crops' embeddings, in batches over `cores` cores.
    func embeddings(of crops: [RGBImage], cores: Int) -> [Embedding]
    /// The embedding a reference stores: the aligned face as it is and mirrored, averaged.
    func referenceEmbedding(_ crop: RGBImage) -> Embedding
}

/// Reads whether a detected face's eyes are open.
public protocol EyeReading: Sendable {
    /// The openness of the eye that shows more of itself, confirmed by the other when low.
    func openness(of face: DetectedFace, in image: RGBImage) -> Float
    /// The openness of an eye from its crop.
    func openness(ofCrop crop: RGBImage) -> Float
    /// `reading`, averaged with the reading of `other` (the other eye's crop, made only if
    /// needed) when it is low.
    func confirmed(_ reading: Float, byCrop other: @autoclosure () -> RGBImage) -> Float
}

/// Tells who an aligned face is: its embedding.
public protocol FaceRecognizing: Sendable {
    /// The model the weights were baked from, e.g. `sface-2021dec`.
    var modelName: String { get }
    /// The embedding of a face aligned to the recognition template.
    func embed(_ face: RGBImage) -> Embedding
}
