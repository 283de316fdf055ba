import Analysis
import Faces
import Foundation
import MediaIO

/// Settings of an analysis run. Each default here is the one `glimt-pure` uses and its help
/// shows (the CLI reads them from this type, never from a literal of its own).
public struct AnalysisOptions: Sendable {
    /// Frames analysed per second of video: 8 puts 8 frames in every 1-second window.
    public var sampleRate: Double = 8
    public static let sampleRates: ClosedRange<Double> = 0.5...120
    /// Long side, in pixels, of the frames faces are looked for in (a small face in a crowd
    /// needs more pixels than a selfie).
    public var analysisSide = FaceDetector.standardSize
    public static let analysisSides: ClosedRange<Int> = 96...4096
    /// The zone UTC capture times and file times are read in.
    public var timeZone: TimeZone = .current
    /// How frames are judged (thresholds, the window's length and shape, which recordings
    /// compete, days without the person).
    public var rules = Judgement.Rules()
    /// Decoder shortcuts for analysis frames (see `Decoding`).
    public var decoding = Decoding()
    /// Look at a long video's keyframes first and sample at the full rate only where they point
    /// (see `Refinement`): for the person looked for, or in the library for anyone a later
    /// reference could show.
    public var coarseToFine = true
    public var refinement = Refinement.Rules()
    /// A face that stays put borrows the embedding of the same face a moment earlier (see
    /// `FaceTracker`): with references while its verdict is settled, in the library on its looks
    /// alone; false embeds every face of every sample.
    public var followFaces = true
    /// Threads measuring frames side by side (a decoding thread runs beside them).
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// How long one video may take to analyse before it is stopped with an error.
    public var timeAllowance = TimeAllowance.standard

    public init() {}

    /// How a video observed with these options was observed, as the library records it.
    public var method: ObservationMethod {
        ObservationMethod(
            version: VideoAnalyzer.version, sampleRate: sampleRate, analysisSide: analysisSide, timeZone: timeZone.identifier,
            everyFace: !followFaces, keyframeLook: coarseToFine)
    }

    /// How hard the decoder works on analysis frames. Skipping the deblocking loop filter makes
    /// decoding cheaper and moved no pick (crops by under a pixel); the other shortcuts are off,
    /// and here so that their worth can be measured (`glimt-bench analyze`): skipping every
    /// non-reference frame missed a person on screen for a single B-frame.
    public struct Decoding: Sendable, Equatable {
        public var skipLoopFilter = true
        /// FFmpeg's non-conforming speed-ups.
        public var fastDecoding = false
        /// Leave every frame no other refers to undecoded, samples included.
        public var skipNonReferenceFrames = false
        /// Decode the pictures between samples that nothing needs too (same samples, slower).
        public var decodeEveryPicture = false
        /// Beyond full HD, where decoding is most of the work, a sample on a picture nothing
        /// refers to is taken from the reference picture shown next, when it is in the same
        /// sample interval (a frame later at most; `VideoDecodeOptions.sampleReferencePictures`).
        public var referenceSamplesBeyondFullHD = true

        public init() {}

        /// For a video of pictures `info` says of.
        func options(for info: VideoInfo) -> VideoDecodeOptions {
            VideoDecodeOptions(
                skipLoopFilter: skipLoopFilter, fastDecoding: fastDecoding, skipNonReferenceFrames: skipNonReferenceFrames,
                decodeEveryPicture: decodeEveryPicture, sampleReferencePictures: referenceSamplesBeyondFullHD && info.isBeyondFullHD)
        }
    }

    /// How long a video may take: `base` seconds plus `perVideoSecond` for each second of it.
    public struct TimeAllowance: Sendable, Equatable {
        public var base: Double
        public var perVideoSecond: Double

        public init(base: Double, perVideoSecond: Double) {
            self.base = base
            self.perVideoSecond = perVideoSecond
        }

        /// The media layer's own bound for reading a file, which the film's reading uses too.
        public static let standard = media
        private static let media = TimeAllowance(base: TimeBound.Allowance.standard.base, perVideoSecond: TimeBound.Allowance.standard.perVideoSecond)

        func bound(forVideoSeconds duration: Double) -> TimeBound {
            TimeBound.Allowance(base: base, perVideoSecond: perVideoSecond).bound(forVideoSeconds: duration)
        }
    }
}

/// Progress after every analysed frame, so a long video never looks stuck.
public struct AnalysisProgress: Sendable {
    public var videoIndex: Int
    public var videoCount: Int
    public var path: String
    public var time: Double
    public var duration: Double
}
