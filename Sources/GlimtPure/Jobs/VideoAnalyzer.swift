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
    /// A day none of whose videos shows the person of the references: skipped, or its best
    /// second anyway.
    public var withoutPerson: DayPick.WithoutPerson = .skip
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

/// Reads videos, measures every sampled frame (faces with their embeddings, looks, sharpness)
/// and judges them (see `Judgement`) per video and per day (see `DayPick`).
public final class VideoAnalyzer: @unchecked Sendable {
    public let options: AnalysisOptions
    public let references: [Reference]
    /// Embed every face, references or not: the library keeps embeddings so that a change of
    /// references needs no decoding.
    public let embedAllFaces: Bool
    private var pipeline: FacePipeline

    public init(options: AnalysisOptions, references: [Reference], pipeline: FacePipeline, embedAllFaces: Bool = false) {
        self.options = options
        self.references = references
        self.embedAllFaces = embedAllFaces
        self.pipeline = pipeline
        // Analysis frames are already scaled to `analysisSide`: the detector takes them as they are.
        self.pipeline.detector.detectionSize = nil
    }

    public var hasReferences: Bool { !references.isEmpty }

    /// Analyses one video. Throws a one-line `GlimtError` naming the file when it cannot be read;
    /// a file damaged part-way is analysed up to the damage.
    public func analyze(path: String, index: Int = 0, count: Int = 1, progress: ((AnalysisProgress) -> Void)? = nil) throws -> VideoAnalysis {
        var times = VideoAnalysis.StageTimes()
        let video = try observe(path: path, contentKey: "", index: index, count: count, times: &times, progress: progress)
        var analysis = Judgement(references: references.map(\.embedding), options: options).analysis(of: video)
        analysis.times = times
        return analysis
    }

    /// Decodes and measures one video: what the library stores. `contentKey` is passed through.
    public func observe(path: String, contentKey: String, index: Int = 0, count: Int = 1, times: inout VideoAnalysis.StageTimes,
                        progress: ((AnalysisProgress) -> Void)? = nil) throws -> StoredVideo {
        let reader = try VideoReader(path: path)
        let info = reader.info
        let status = try FileStatus(path)
        let tags = info.tags.merging(info.streamTags) { container, _ in container }
        guard let capture = CaptureDate.resolve(tags: tags, path: path, modified: status.modified, timeZone: options.timeZone) else {
            throw GlimtError("no capture date (no metadata, no dated file name, no modification time)", path: path)
        }
        let scale = Float(max(info.displayWidth, info.displayHeight)) / Float(min(options.analysisSide, max(info.displayWidth, info.displayHeight)))
        var frames: [StoredFrame] = []
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
                frames.append(measure(sample, scale: scale, times: &times))
                progress?(AnalysisProgress(videoIndex: index, videoCount: count, path: path, time: sample.time, duration: info.duration))
            }
        }
        times.decode = samples.decodeSeconds
        times.convert = samples.convertSeconds
        if let damage, frames.isEmpty { throw damage }
        let duration = damage == nil ? info.duration : min(info.duration, (frames.last?.time ?? 0) + 1 / options.sampleRate)
        return StoredVideo(contentKey: contentKey, path: path, size: status.size, modified: status.modified.timeIntervalSince1970, capture: capture,
                           duration: duration, width: info.displayWidth, height: info.displayHeight, rotation: info.rotation,
                           codec: info.codecName, hdr: info.colour.isHDR, frames: frames)
    }

    private func measure(_ sample: SampledFrame, scale: Float, times: inout VideoAnalysis.StageTimes) -> StoredFrame {
        let image = sample.image
        var t = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { t = now }
            return Double(now - t) / 1e9
        }
        let detected = pipeline.detector.detect(image)
        times.detect += lap()
        let faces = pipeline.records(for: detected, in: image, embed: embedAllFaces || hasReferences).map { r in
            // Analysis frames are scaled down; boxes are kept in the video's own upright pixels.
            StoredFace(box: r.face.box.scaled(by: scale), score: r.face.score, quality: r.quality.value, embedding: r.embedding)
        }
        times.alignEmbed += lap()
        let sharpness = Float(Sharpness.score(image))
        let aesthetics = Aesthetics.measure(image, sharpness: Double(sharpness))
        times.score += lap()
        times.frames += 1
        return StoredFrame(time: sample.time, aesthetics: aesthetics, sharpness: sharpness, faces: faces)
    }
}
