import Analysis
import Faces
import Imaging

/// The face models (YuNet to find faces, SFace to tell who they are, the iris model for open eyes), loaded once per process,
/// as the rest of the program holds them: it asks for faces, never for a network.
public struct FaceModels: Sendable {
    package var pipeline: any FaceReading

    package init(_ pipeline: any FaceReading) { self.pipeline = pipeline }

    /// The models of the build of their kernels chosen at start (`Kernels`), loaded side by side
    /// on first use and shared after.
    public static func load() throws -> FaceModels { FaceModels(try Kernels.models().reader()) }

    /// Frees the loaded models' weights and scratch (a film's render needs the memory more);
    /// the next `load` loads afresh.
    public static func unloadAll() { (try? Kernels.models())?.unloadAll() }

    /// The long side a photo is scaled to for detection: YuNet's standard input, and what
    /// `faces --detect-size` may set.
    public static let standardDetectionSize = FaceDetector.standardSize
    public static let detectionSizes = FaceDetector.sizes

    /// The long side pictures are scaled to before detection (nil: as they are).
    public var detectionSize: Int? {
        get { pipeline.detectionSize }
        set { pipeline.detectionSize = newValue }
    }

    /// Faces of `image`, highest detector score first, aligned and measured, with their
    /// embeddings when `embed`.
    public func faces(in image: RGBImage, embed: Bool) -> [FaceRecord] {
        pipeline.faces(in: image, embed: embed)
    }

    /// The embedding a reference stores: the aligned face as it is and mirrored, averaged.
    public func referenceEmbedding(_ crop: RGBImage) -> Embedding {
        pipeline.referenceEmbedding(crop)
    }
}
