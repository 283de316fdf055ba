import Analysis
import Foundation
import GlimtCore
import Imaging
import SFaceWeights
import TensorLite

/// Picture -> faces -> aligned crops -> (optionally) embeddings: the path shared by `faces`,
/// `reference add` and video analysis.
public struct FacePipeline: FaceReading {
    public var detector: FaceDetector
    private let recognition: Recognition
    /// Whether eyes are read (see `eyes`).
    public let readsEyes: Bool

    public init(detector: FaceDetector, recognizer: SFace, readsEyes: Bool = false) {
        self.detector = detector
        self.recognition = Recognition(recognizer)
        self.readsEyes = readsEyes
    }

    private init(detector: FaceDetector, recognition: Recognition, readsEyes: Bool) {
        self.detector = detector
        self.recognition = recognition
        self.readsEyes = readsEyes
    }

    /// The recognition model. Given, or loaded on the first face embedded (see `shared()`).
    public var recognizer: SFace { recognition.model }

    /// Loads the recognition model now, off this thread, when it is not loaded yet: a caller
    /// that will embed faces has it ready by its first one.
    public func prepareRecognizer() {
        guard !recognition.isLoaded else { return }
        let recognition = self.recognition
        DispatchQueue.global().async { _ = recognition.model }
    }

    /// The eye model, loaded on the first face whose eyes are read (most runs' first video has
    /// one; a run of videos without a large face never pays for it) and shared after. Nil when
    /// eyes are not read, or its weights are missing (the install puts them beside the others).
    public var eyes: (any EyeReading)? { readsEyes ? try? EyeReader.shared() : nil }

    /// The detector's: long side of the image the network sees (nil: as it is).
    public var detectionSize: Int? {
        get { detector.detectionSize }
        set { detector.detectionSize = newValue }
    }

    /// The detector's faces in `image` (see `FaceDetector.detect`).
    public func detect(_ image: RGBImage) -> [DetectedFace] { detector.detect(image) }

    /// The detector, loaded (shared after). The recognition model is loaded on the first face
    /// embedded, or by `prepareRecognizer()`: unpacking its weights is a tenth of a second of
    /// work that a run finding faces without telling who they are (`analyze --no-refs`) never
    /// needs. Its weight file is looked for now, so a missing one fails here, not mid-run.
    public static func shared() throws -> FacePipeline {
        if case .failure(let missing) = BakedWeights.locate(SFace.bakedName) { throw GlimtError(missing.description) }
        return FacePipeline(detector: try FaceDetector.shared(), recognition: Recognition(nil), readsEyes: true)
    }

    /// The recognition model, given or loaded once on first use, by whichever thread asks first.
    private final class Recognition: @unchecked Sendable {
        private let lock = NSLock()
        private var loaded: SFace?

        init(_ model: SFace?) { loaded = model }

        var isLoaded: Bool {
            lock.lock()
            defer { lock.unlock() }
            return loaded != nil
        }

        var model: SFace {
            lock.lock()
            defer { lock.unlock() }
            if let loaded { return loaded }
            do {
                let model = try SFace.shared()
                loaded = model
                return model
            } catch {
                // Its file was found at start (`shared()`): only a file damaged since gets here.
                fatalError("glimt-pure: the face recognition model could not be loaded: \(error)")
            }
        }
    }

    /// Faces in detector order (highest score first).
    public func faces(in image: RGBImage, embed: Bool) -> [FaceRecord] { faces(in: image, embed: embed, profile: nil) }

    package func faces(in image: RGBImage, embed: Bool, profile: LayerProfile?) -> [FaceRecord] {
        records(for: detector.detect(image, profile: profile), in: image, embed: embed)
    }

    /// Aligns, measures and (optionally) embeds detected faces, on every core; results stay in
    /// detector order and are identical run to run.
    public func records(for detected: [DetectedFace], in image: RGBImage, embed: Bool) -> [FaceRecord] {
        records(for: detected, in: image, embedding: [Bool](repeating: embed, count: detected.count))
    }

    /// As above, embedding face `i` only where `embedding[i]` is true.
    public func records(for detected: [DetectedFace], in image: RGBImage, embedding: [Bool]) -> [FaceRecord] {
        var records = aligned(detected, in: image)
        embed(&records, where: embedding)
        return records
    }

    /// Aligns and measures detected faces, one face per task (no embeddings yet).
    public func aligned(_ detected: [DetectedFace], in image: RGBImage) -> [FaceRecord] {
        Concurrently.map(detected.count) { i in
            let crop = FaceAlignment.align(image, landmarks: detected[i].landmarks)
            return FaceRecord(face: detected[i], quality: FaceQuality.measure(face: detected[i], alignedCrop: crop), crop: crop, embedding: nil)
        }
    }

    /// Embeds the records flagged in `flags` (see `embeddings(of:cores:)`).
    public func embed(_ records: inout [FaceRecord], where flags: [Bool], cores: Int = ProcessInfo.processInfo.activeProcessorCount) {
        precondition(flags.count == records.count, "one embedding flag per face")
        let flagged = records.indices.filter { flags[$0] }
        for (i, e) in zip(flagged, embeddings(of: flagged.map { records[$0].crop }, cores: cores)) { records[i].embedding = e }
    }

    /// Aligned crops' embeddings, in batches (fc1's weights stream once per batch), one batch
    /// per core of `cores`. A caller that keeps the cores busy already (one of several measuring
    /// threads) passes 1: its faces then go in one batch on its own thread, where split they would
    /// only have run one after the other (a `concurrentPerform` inside another runs serially),
    /// streaming the weights once per part. A face's embedding does not depend on its batch.
    public func embeddings(of crops: [RGBImage], cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Embedding] {
        let batches = Self.batches(crops.count, cores: cores)
        var embeddings = [Embedding?](repeating: nil, count: crops.count)
        embeddings.withUnsafeMutableBufferPointer { slots in
            let out = slots
            DispatchQueue.concurrentPerform(iterations: batches.count) { b in
                for (i, e) in zip(batches[b], recognizer.embed(Array(crops[batches[b]]))) { out[i] = e }
            }
        }
        return embeddings.map { $0! }
    }

    /// `count` faces split into contiguous batches of near-equal size, a multiple of `cores` of
    /// them (so no core waits on a last odd batch) of at most 8 faces (beyond which fc1 gains little).
    static func batches(_ count: Int, cores: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        let k = min(count, roundUp((count + 7) / 8, to: max(1, cores)))
        return (0..<k).map { count * $0 / k..<count * ($0 + 1) / k }
    }

    /// The embedding a reference photo stores: the aligned face as it is and mirrored, averaged
    /// and re-normalised (a slightly steadier reference for free).
    public func referenceEmbedding(_ crop: RGBImage) -> Embedding {
        Embedding.average(embeddings(of: [crop, FaceAlignment.mirrored(crop)]))
    }
}
