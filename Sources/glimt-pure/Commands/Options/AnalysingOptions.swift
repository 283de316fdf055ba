import GlimtPure

/// What only an analysis of videos takes: sampling, and the two shortcuts it may be told to
/// leave out. The library's scan says them in its own terms (`forTheLibrary`): it samples for
/// anyone a later reference could show.
struct AnalysingOptions: ParsedGroup {
    let sampling = SamplingOptions()
    let fullPass: FlagOption
    let everyFace: FlagOption

    /// For commands that analyse for one set of references.
    init() {
        fullPass = FlagOption(
            "--full-pass",
            "Sample every second of long videos at the full rate, instead of looking at their keyframes first and sampling fully only around the best of them (slower, the same picks on the test clips)"
        )
        everyFace = FlagOption(
            "--every-face",
            "Embed every face of every sampled frame. By default, with references, a face that stays put and looks the same is embedded every sixth frame, the frames between borrowing its embedding while it is clearly the person or clearly not (faster, the same picks on the test clips)"
        )
    }

    private init(fullPass: FlagOption, everyFace: FlagOption) {
        self.fullPass = fullPass
        self.everyFace = everyFace
    }

    /// The library's: a long video's look is for anyone a later reference could show, and
    /// without references a followed face borrows on its looks alone.
    static let forTheLibrary = AnalysingOptions(
        fullPass: FlagOption(
            "--full-pass",
            "Sample every second of long videos at the full rate. By default a video of \(Int(Refinement.anyoneFrom)) s or more is looked at by its keyframes first and sampled fully only around the keyframes where someone seen there, or no one, has their best moment (a later reference's second can then be one a full pass ranks a little lower, see docs/library.md). A scan with it analyses again the videos looked at"
        ),
        everyFace: FlagOption(
            "--every-face",
            "Embed every face of every sampled frame. By default a face that stays put and looks the same is embedded every sixth frame, the frames between borrowing its embedding (about half the CPU; a later reference can judge a borrowed face near a threshold differently, see docs/library.md). A scan with it analyses again the videos scanned without"
        ))

    /// The analysis options these set; the judging rules are the caller's.
    static func value(_ args: Arguments<AnalysingOptions>) throws -> AnalysisOptions {
        var o = try args.value(\.sampling)
        o.coarseToFine = !args.flag(\.fullPass)
        o.followFaces = !args.flag(\.everyFace)
        return o
    }
}
