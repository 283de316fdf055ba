import Foundation
import GlimtCore
import Imaging
import MediaIO
import Faces
import Analysis
import Film
import Library

/// Settings of an analysis run (defaults are what `glimt-pure analyze` uses).
public struct AnalysisOptions: Sendable {
    /// Frames analysed per second of video: 8 puts 8 frames in every 1-second window.
    public var sampleRate: Double = 8
    /// Long side, in pixels, of the frames faces are looked for in (a small face in a crowd
    /// needs more pixels than a selfie).
    public var analysisSide: Int = 640
    public var windowLength: Double = 1.0
    public var thresholds: Identity.Thresholds = .standard
    /// Width / height of the film the crops are framed for.
    public var aspect: Float = Aspect.portrait.ratio
    public var timeZone: TimeZone = .current
    /// Decoder shortcuts for analysis frames. Skipping the deblocking loop filter saved 5-15 % of
    /// decoding on 1080p H.264 and moved no pick (crops by under a pixel). Skipping
    /// non-reference frames saved more (20-25 % with B-frames) but is off: a person on screen for
    /// a single B-frame was never seen. `glimt-bench analyze` measures them.
    public var decode = VideoDecodeOptions(skipLoopFilter: true)

    public init() {}
}

/// Progress after every analysed frame, so a long video never looks stuck.
public struct AnalysisProgress: Sendable {
    public var videoIndex: Int
    public var videoCount: Int
    public var path: String
    public var time: Double
    public var duration: Double
}

/// Reads videos, scores every sampled frame and concludes per video (see `VideoAnalysis`) and per
/// day (see `DayPick`).
public final class VideoAnalyzer {
    public let options: AnalysisOptions
    public let references: [Reference]
    private var pipeline: FacePipeline
    private let embeddings: [Embedding]

    public init(options: AnalysisOptions, references: [Reference], pipeline: FacePipeline) {
        self.options = options
        self.references = references
        self.embeddings = references.map(\.embedding)
        self.pipeline = pipeline
        // Analysis frames are already scaled to `analysisSide`: the detector takes them as they are.
        self.pipeline.detector.detectionSize = nil
    }

    public var hasReferences: Bool { !references.isEmpty }

    /// Analyses one video. Throws a one-line `GlimtError` naming the file when it cannot be read;
    /// a file damaged part-way is analysed up to the damage.
    public func analyze(path: String, index: Int = 0, count: Int = 1, progress: ((AnalysisProgress) -> Void)? = nil) throws -> VideoAnalysis {
        let reader = try VideoReader(path: path)
        let info = reader.info
        let modified = try? FileStatus(path).modified
        let tags = info.tags.merging(info.streamTags) { container, _ in container }
        guard let capture = CaptureDate.resolve(tags: tags, path: path, modified: modified, timeZone: options.timeZone) else {
            throw GlimtError("no capture date (no metadata, no dated file name, no modification time)", path: path)
        }
        let scale = Float(max(info.displayWidth, info.displayHeight)) / Float(min(options.analysisSide, max(info.displayWidth, info.displayHeight)))
        var times = VideoAnalysis.StageTimes()
        var frames: [FrameAnalysis] = []
        let samples = try reader.frames(every: 1 / options.sampleRate, longSide: options.analysisSide, options: options.decode)
        var damage: GlimtError?
        do {
            let ahead = Prefetcher(depth: 3) { try samples.next() }
            // The decoding thread stops before its timings are read, however the loop ends.
            defer { ahead.finish() }
            while true {
                let sample: SampledFrame?
                do { sample = try ahead.next() } catch let e as GlimtError {
                    damage = e
                    break
                }
                guard let sample else { break }
                frames.append(analyzeFrame(sample, scale: scale, times: &times))
                progress?(AnalysisProgress(videoIndex: index, videoCount: count, path: path, time: sample.time, duration: info.duration))
            }
        }
        times.decode = samples.decodeSeconds
        times.convert = samples.convertSeconds
        if let damage, frames.isEmpty { throw damage }
        let duration = damage == nil ? info.duration : min(info.duration, (frames.last?.time ?? 0) + 1 / options.sampleRate)
        return VideoAnalysis.conclude(path: path, duration: duration, width: info.displayWidth, height: info.displayHeight, rotation: info.rotation,
                                      codec: info.codecName, hdr: info.colour.isHDR, capture: capture, frames: frames,
                                      hasReferences: hasReferences, thresholds: options.thresholds, windowLength: options.windowLength,
                                      aspect: options.aspect, times: times)
    }

    private func analyzeFrame(_ sample: SampledFrame, scale: Float, times: inout VideoAnalysis.StageTimes) -> FrameAnalysis {
        let image = sample.image
        var t = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { t = now }
            return Double(now - t) / 1e9
        }
        let detected = pipeline.detector.detect(image)
        times.detect += lap()
        let faces = pipeline.records(for: detected, in: image, embed: !embeddings.isEmpty).map { r in
            // Analysis frames are scaled down; boxes are kept in the video's own upright pixels.
            FaceInFrame(box: r.face.box.scaled(by: scale), score: r.face.score, quality: r.quality.value,
                        cosine: r.embedding.flatMap { $0.bestCosine(embeddings) })
        }
        times.alignEmbed += lap()
        let sharpness = Float(Sharpness.score(image))
        let aesthetics = Aesthetics.measure(image, sharpness: Double(sharpness))
        let frame = FrameAnalysis.evaluate(time: sample.time, faces: faces, aesthetics: aesthetics, sharpness: sharpness,
                                           hasReferences: !embeddings.isEmpty, thresholds: options.thresholds)
        times.score += lap()
        times.frames += 1
        return frame
    }
}
