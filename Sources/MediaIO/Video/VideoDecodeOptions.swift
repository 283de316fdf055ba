/// How hard the video decoder works. The defaults decode every frame exactly; the cheap
/// switches trade picture quality for speed and are options so their worth can be measured.
public struct VideoDecodeOptions: Sendable, Equatable {
    /// Decoder threads; 0 lets FFmpeg pick one per core. Frame and slice threading are both on
    /// unless `sliceThreadsOnly`.
    public var threads: Int
    /// Threads share the picture being decoded (slices, or HEVC's wavefront rows) instead of
    /// each decoding a picture of its own: no picture more in memory per thread, but as fast
    /// as frame threads only where the stream is coded in slices or wavefronts (x265's default).
    /// For large pictures where memory is short, and for a keyframes-only look (which drains
    /// the decoder after every picture, so frame threads never overlap).
    public var sliceThreadsOnly: Bool
    /// Skip the in-loop deblocking filter (H.264, HEVC, VP9; ignored elsewhere): blockier frames.
    public var skipLoopFilter: Bool
    /// FFmpeg's non-conforming speed-ups (`AV_CODEC_FLAG2_FAST`).
    public var fastDecoding: Bool
    /// Do not decode frames that no other frame refers to (most B-frames): sampled frames then
    /// come from the reference frames nearest after each sample time.
    public var skipNonReferenceFrames: Bool
    /// Decode every picture between samples too. By default a sampled reader leaves pictures
    /// that are neither sampled nor referred to by any other picture undecoded (most B-frames,
    /// see `DisposablePictures`): the samples are the same pixels either way, so this is only
    /// for measuring what that saves.
    public var decodeEveryPicture: Bool
    /// A sample that falls on a picture no other picture needs is taken from the reference
    /// picture shown right after it, when that one is still before the next sample time: a
    /// frame later at most, and the picture before it is not decoded at all. Where decoding is
    /// the bottleneck (4K), that leaves the reference pictures alone to decode, as for a look at
    /// them, whenever each sample has one beside it.
    public var sampleReferencePictures: Bool
    /// Decode keyframes only (every other packet is dropped before decoding): a quick look at a
    /// long video, one picture per group of pictures, for deciding where to look closely.
    public var keyframesOnly: Bool
    /// With `keyframesOnly`: decode every other keyframe only, 0 the first, third, ... of the
    /// read, 1 the second, fourth, ...; nil every keyframe. The two halves together are every
    /// keyframe, each picture the same as when all are decoded (each keyframe starts afresh).
    public var keyframeHalf: Int?
    /// libswscale's exact rounding when converting to RGB: C code instead of SIMD, several
    /// times slower, for values at most a level or two apart. nil: off for sampled frames
    /// (looked at, not shown), on for full-resolution frames.
    public var accurateRounding: Bool?
    /// When reading must stop (see `TimeBound`); nil: only the bound for opening.
    public var timeBound: TimeBound?

    public init(
        threads: Int = 0, skipLoopFilter: Bool = false, fastDecoding: Bool = false, skipNonReferenceFrames: Bool = false,
        accurateRounding: Bool? = nil, keyframesOnly: Bool = false, keyframeHalf: Int? = nil, sliceThreadsOnly: Bool = false,
        decodeEveryPicture: Bool = false,
        sampleReferencePictures: Bool = false, timeBound: TimeBound? = nil
    ) {
        self.threads = threads
        self.sliceThreadsOnly = sliceThreadsOnly
        self.skipLoopFilter = skipLoopFilter
        self.fastDecoding = fastDecoding
        self.skipNonReferenceFrames = skipNonReferenceFrames
        self.accurateRounding = accurateRounding
        self.keyframesOnly = keyframesOnly
        self.keyframeHalf = keyframeHalf
        self.decodeEveryPicture = decodeEveryPicture
        self.sampleReferencePictures = sampleReferencePictures
        self.timeBound = timeBound
    }

    /// Every cheap switch on: for sampling frames to look at, never for frames a film shows.
    public static let cheap = VideoDecodeOptions(skipLoopFilter: true, fastDecoding: true, skipNonReferenceFrames: true)
}
