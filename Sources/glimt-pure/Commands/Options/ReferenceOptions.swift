import GlimtPure

/// Whom a command looks for: one person of the library, everyone, this run's photos, or no one.
struct ReferenceOptions: ParsedGroup {
    let person = SharedOptions.person
    let everyone = FlagOption(
        "--everyone", "Every person of the library together: each day the second with the most of them in it (ties: the better score)")
    let ref = ListOption(
        "--ref", "PHOTO[:FACE]", completion: .file,
        "A reference photo of the person (up to \(ReferenceStore.maxReferences); FACE picks one of several faces, numbered as 'glimt-pure faces' shows). Used for this run only. Without --ref, the references stored with 'glimt-pure reference add' are used"
    )
    let noRefs = FlagOption("--no-refs", "Ignore stored references: pick the best-looking second with a clear face")
    let library = SharedOptions.library

    static func value(_ args: Arguments<ReferenceOptions>) throws -> References.Choice {
        let person = args.value(\.person)
        let photos = args.all(\.ref)
        if args.flag(\.noRefs) {
            guard photos.isEmpty else { throw UsageError("--no-refs and --ref contradict each other") }
            guard person == nil else { throw UsageError("--no-refs and --person contradict each other") }
            return .none
        }
        if args.flag(\.everyone) {
            guard person == nil, photos.isEmpty else {
                throw UsageError("--everyone is every person of the library: give it without --person or --ref")
            }
            return .everyone(library: try args.value(\.library))
        }
        if !photos.isEmpty, let person {
            throw UsageError("--ref gives this run's references, --person names the library's '\(person)': give one of them")
        }
        return photos.isEmpty ? .stored(library: try args.value(\.library), person: person) : .photos(photos)
    }

    /// The library's days judged by `rules`, for the people these name; said when that is no one.
    static func libraryDays(_ args: Arguments<ReferenceOptions>, rules: @autoclosure () throws -> Judgement.Rules) throws -> LibraryDays {
        let days = try LibraryDays(library: args.value(\.library), rules: rules(), lookFor: try References.resolve(try value(args)))
        noteIfNoOneIsLookedFor(days.lookFor, args)
        return days
    }

    /// Without references the best-looking face wins, whoever it is: said once, when the run
    /// has got as far as judging.
    static func noteIfNoOneIsLookedFor(_ lookFor: LookFor, _ args: Arguments<ReferenceOptions>) {
        guard lookFor.judged == nil, !lookFor.everyone, !args.flag(\.noRefs) else { return }
        Console.notice(
            "glimt-pure \(args.command): no reference photo, so no one is looked for: each day's second is the best-looking one with a clear face, "
                + "whoever it shows (add one: glimt-pure reference add PHOTO, or --ref PHOTO; --no-refs says this is what you want)")
    }

    /// The same, said before videos are analysed when the library's stored references are none.
    static func noteIfNoneAreStored(_ choice: References.Choice, _ args: Arguments<ReferenceOptions>) {
        guard case .stored(let library, nil) = choice, let stored = try? ReferenceStore(library: library).list(), stored.isEmpty else { return }
        noteIfNoOneIsLookedFor(.noOne, args)
    }
}
