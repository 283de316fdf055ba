import Foundation
import TensorLite
import Imaging

/// One face in a picture, with everything later stages use.
public struct FaceRecord: Sendable {
    public var face: DetectedFace
    public var quality: FaceQuality
    /// The 112x112 crop aligned to SFace's template.
    public var crop: RGBImage
    /// L2-normalised SFace embedding, when asked for.
    public var embedding: Embedding?
}

/// Picture -> faces -> aligned crops -> (optionally) embeddings: the path shared by `faces`,
/// `reference add` and video analysis.
public struct FacePipeline: Sendable {
    public var detector: FaceDetector
    public let recognizer: SFace

    public init(detector: FaceDetector, recognizer: SFace) {
        self.detector = detector
        self.recognizer = recognizer
    }

    public static func shared() throws -> FacePipeline {
        FacePipeline(detector: try FaceDetector.shared(), recognizer: try SFace.shared())
    }

    /// Faces in detector order (highest score first).
    public func faces(in image: RGBImage, embed: Bool) -> [FaceRecord] { faces(in: image, embed: embed, profile: nil) }

    package func faces(in image: RGBImage, embed: Bool, profile: LayerProfile?) -> [FaceRecord] {
        records(for: detector.detect(image, profile: profile), in: image, embed: embed)
    }

    /// Aligns, measures and (optionally) embeds detected faces. Faces are independent, so they
    /// run on every core (a crowd of 17 is 17 embeddings); results stay in detector order, so
    /// runs are identical.
    public func records(for detected: [DetectedFace], in image: RGBImage, embed: Bool) -> [FaceRecord] {
        records(for: detected, in: image, embedding: [Bool](repeating: embed, count: detected.count))
    }

    /// As above, embedding face `i` only where `embedding[i]` is true.
    public func records(for detected: [DetectedFace], in image: RGBImage, embedding: [Bool]) -> [FaceRecord] {
        precondition(embedding.count == detected.count, "one embedding flag per face")
        var records = [FaceRecord?](repeating: nil, count: detected.count)
        records.withUnsafeMutableBufferPointer { out in
            let slots = out
            DispatchQueue.concurrentPerform(iterations: detected.count) { i in
                let face = detected[i]
                let crop = FaceAlignment.align(image, landmarks: face.landmarks)
                slots[i] = FaceRecord(face: face, quality: FaceQuality.measure(face: face, alignedCrop: crop), crop: crop,
                                      embedding: embedding[i] ? recognizer.embed(crop) : nil)
            }
        }
        return records.map { $0! }
    }

    /// The embedding a reference photo stores: the aligned face as it is and mirrored, averaged
    /// and re-normalised (a slightly steadier reference for free).
    public func referenceEmbedding(_ crop: RGBImage) -> Embedding {
        Embedding.average([recognizer.embed(crop), recognizer.embed(FaceAlignment.mirrored(crop))])
    }
}
