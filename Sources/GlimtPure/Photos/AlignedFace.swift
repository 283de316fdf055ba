import Faces
import GlimtCore
import MediaIO

/// `glimt-pure embed`: the SFace embedding of an image that is already an aligned face.
public enum AlignedFace {
    public static func embed(_ path: String) throws -> (model: String, embedding: Embedding) {
        let model = try SFace.shared()
        let image = try ImageDecoder.decode(path: path)
        guard image.width == SFace.inputSize, image.height == SFace.inputSize else {
            throw GlimtError("is \(image.width)x\(image.height); embed needs an aligned \(SFace.inputSize)x\(SFace.inputSize) face (for photos use 'glimt-pure faces --embed')", path: path)
        }
        return (model.modelName, model.embed(image))
    }
}
