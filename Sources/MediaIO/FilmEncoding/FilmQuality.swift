/// How hard x264 works on the film and how much detail it keeps.
public struct FilmQuality: Sendable, Equatable {
    /// x264's constant rate factor: lower keeps more detail in bigger files. 18 looks
    /// transparent to most eyes, 23 is x264's own default.
    public var crf: Double
    /// x264's speed preset, from "ultrafast" to "veryslow": slower presets make smaller files
    /// at the same `crf`.
    public var preset: String

    public init(crf: Double, preset: String) {
        self.crf = crf
        self.preset = preset
    }

    /// What a film gets unless asked otherwise: the fastest preset that keeps the picture of
    /// "medium" at CRF 20 (as close to the source crop by SSIM, on clips upscaled from small videos
    /// and on grainy 4K), for somewhat larger files; ultrafast, faster still, turns off deblocking
    /// and adaptive quantisation, whose blocks and banding SSIM does not see. Benchmarks/README.md
    /// has the table.
    public static let standard = FilmQuality(crf: 22, preset: "superfast")

    /// The standard quality at another speed preset.
    public init(preset: String) { self.init(crf: Self.standard.crf, preset: preset) }

    /// x264's presets, fastest first ("placebo" left out: it only costs time).
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    /// 0 is lossless, which needs the High 4:4:4 profile that many players refuse; past 51
    /// x264 has no scale.
    public static let crfRange = 1.0...51.0

    /// The reason these settings cannot be used, or nil.
    var problem: String? {
        if !crf.isFinite || !Self.crfRange.contains(crf) {
            return "film quality crf must be from 1 to 51, not \(crf)"
        }
        if !Self.presets.contains(preset) {
            return "unknown x264 preset \"\(oneLine(preset))\" (use one of \(Self.presets.joined(separator: ", ")))"
        }
        return nil
    }
}
