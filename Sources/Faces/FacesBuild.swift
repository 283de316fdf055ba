import Analysis
import TensorLite

/// This module's models as the engine knows them: in the Debian package this module is compiled
/// once per kernel variant (Faces_avx512 and the others, each on its own TensorLite), and the
/// engine picks one of these builds at start (AnalysisEngine's `Kernels`).
public enum FacesBuild: FaceModelsBuild {
    public static let kernels = KernelVariant.compiled.rawValue

    public static func reader() throws -> any FaceReading { try FacePipeline.shared() }

    public static func detector() throws -> any FaceDetecting { try FaceDetector.shared() }

    /// The product's own network where that is the float one, else the float one loaded afresh.
    public static func floatRecognizer() throws -> any FaceRecognizing {
        SFace.Arithmetic.fastest == .float ? try SFace.shared() : try SFace.baked(.float)
    }

    public static func unloadAll() { BakedModelCache.unloadAll() }
}
