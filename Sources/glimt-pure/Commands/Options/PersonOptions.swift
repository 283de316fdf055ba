import GlimtPure

/// Whose choices a command changes: one person of the library (`--person`), or its only one.
struct PersonOptions: OptionGroup {
    let person = SharedOptions.person
    let library = SharedOptions.library

    /// The choices (pins, excluded days) of the person --person names, or of the library's only
    /// person, or of no one.
    static func choices(_ args: Arguments<PersonOptions>) throws -> LibraryChoices {
        let library = try args.value(\.library)
        let person = try People.choose(args.value(\.person), in: try ReferenceStore(library: library).people())
        return try LibraryChoices(library: library, person: person?.id ?? LibraryStore.noOne)
    }
}
