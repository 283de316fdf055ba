import GlimtPure

/// When a face is the person: the thresholds, each default `Identity.Thresholds.standard`'s.
struct IdentityOptions: ParsedGroup {
    let match = IdentityOptions.matchThreshold
    let strong = NumberOption(
        "--strong-threshold", "C", default: Identity.Thresholds.standard.strong, range: -1...1, "Cosine at which one frame is enough")
    let framesNeeded = NumberOption(
        "--frames-needed", "N", default: Identity.Thresholds.standard.framesNeeded, range: 1...1000,
        "Frames at the match threshold needed otherwise")

    /// Also taken alone, by `faces --match`.
    static let matchThreshold = NumberOption(
        "--match-threshold", "C", default: Identity.Thresholds.standard.match, range: -1...1,
        "Cosine from which a face is the person")

    static func value(_ args: Arguments<IdentityOptions>) throws -> Identity.Thresholds {
        Identity.Thresholds(match: try args.value(\.match), strong: try args.value(\.strong), framesNeeded: try args.value(\.framesNeeded))
    }
}
