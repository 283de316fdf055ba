import GlimtPure

/// Kinds of recording set aside by default (see `Recording` in docs/inputs.md).
struct RecordingOptions: ParsedGroup {
    let livePhotos = FlagOption(
        "--live-photos", "Let Live Photos' movies (the 1.5-3 s clip beside an iPhone photo) compete for their days; set aside by default")
    let screenRecordings = FlagOption("--screen-recordings", "Let screen recordings compete for their days; set aside by default")

    static func value(_ args: Arguments<RecordingOptions>) throws -> RecordingChoice {
        RecordingChoice(livePhotos: args.flag(\.livePhotos), screenRecordings: args.flag(\.screenRecordings))
    }
}
