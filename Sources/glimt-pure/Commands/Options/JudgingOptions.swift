import GlimtPure

/// How the library's days are judged ('days', 'show', 'calendar', 'review'): the rules, and
/// whom for.
struct JudgingOptions: ParsedGroup {
    let withoutPerson = SharedOptions.withoutPerson
    let photos = SharedOptions.photos
    let seconds = SharedOptions.seconds
    let aspect = SharedOptions.aspect
    let references = ReferenceOptions()
    let identity = IdentityOptions()
    let recordings = RecordingOptions()

    static func value(_ args: Arguments<JudgingOptions>) throws -> Judgement.Rules {
        var r = Judgement.Rules()
        r.thresholds = try args.value(\.identity)
        r.withoutPerson = try args.value(\.withoutPerson)
        r.photos = try args.value(\.photos)
        r.windowLength = try args.value(\.seconds)
        r.aspect = try args.value(\.aspect).ratio
        r.recordings = try args.value(\.recordings)
        return r
    }

    /// The library's days judged by these rules, for the people they name.
    static func days(_ args: Arguments<JudgingOptions>) throws -> LibraryDays {
        try ReferenceOptions.libraryDays(args.group(\.references), rules: try value(args))
    }
}
