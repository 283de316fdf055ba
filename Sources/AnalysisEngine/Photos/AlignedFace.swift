import Analysis
import Faces
import GlimtCore
import MediaIO

/// `glimt-pure embed`: the SFace embedding of an image that is already an aligned face, from the
/// float network on every machine (analysis embeds in int8 where the CPU has AVX2; this is the
/// embedding those are held to, and the one OpenCV's SFace gives).
public enum AlignedFace {
    /// Loaded on first use, once, by the build of the models chosen at start (`Kernels`).
    private static let model = Result { try Kernels.models().floatRecognizer() }

    public static func embed(_ path: String) throws -> (model: String, embedding: Embedding) {
        let model = try model.get()
        let image = try ImageDecoder.decode(path: path)
        guard image.width == SFace.inputSize, image.height == SFace.inputSize else {
            throw GlimtError(
                "is \(image.width)x\(image.height); embed needs an aligned \(SFace.inputSize)x\(SFace.inputSize) face (for photos use 'glimt-pure faces --embed')",
                path: path)
        }
        return (model.modelName, model.embed(image))
    }
}
