/// A command's parsed command line, read by its own options: each is named by the key path of
/// the property that declares it in the command's `Options` (`args.flag(\.json)`,
/// `args.value(\.out)`), so an option is read only as the type it was declared with, and only
/// by a command that declares it. There is no way to look one up by name.
struct Arguments<Options: OptionGroup> {
    let options: Options
    private let line: ParsedCommandLine

    init(_ line: ParsedCommandLine, options: Options) {
        self.line = line
        self.options = options
    }

    /// The command's name, for messages.
    var command: String { line.command }
    var positionals: [String] { line.positionals }

    func flag(_ option: KeyPath<Options, FlagOption>) -> Bool { line.isGiven(spec(option)) }

    func value(_ option: KeyPath<Options, TextOption>) -> String? { line.value(of: spec(option)) }

    func all(_ option: KeyPath<Options, ListOption>) -> [String] { line.values(of: spec(option)) }

    /// The option's value as its type reads it (a number in its range, a day, a choice).
    func value<O: ParsedOption>(_ option: KeyPath<Options, O>) throws -> O.Value {
        try options[keyPath: option].value(line.value(of: spec(option)), command: command)
    }

    /// The one value a group's options make together.
    func value<G: ParsedGroup>(_ group: KeyPath<Options, G>) throws -> G.Value { try G.value(self.group(group)) }

    /// The words given for an option, as written (to say them back to the person).
    func text<O: DeclaredOption>(_ option: KeyPath<Options, O>) -> String? { line.value(of: spec(option)) }

    /// A group of the options, read on its own.
    func group<G: OptionGroup>(_ group: KeyPath<Options, G>) -> Arguments<G> { Arguments<G>(line, options: options[keyPath: group]) }

    /// Whether the option, or any option of the group, was given.
    func has(_ declared: PartialKeyPath<Options>) -> Bool { !given(declared).isEmpty }

    /// Options that have no effect in this mode of the command: a usage error naming the first
    /// one given (in the order listed) and where it does apply.
    func refuse(_ declared: [PartialKeyPath<Options>], because why: String) throws {
        if let spec = declared.lazy.flatMap(given).first { throw UsageError("\(spec.name) \(why)") }
    }

    func requirePositionals(_ what: String, min: Int = 1, max: Int = Int.max) throws {
        if positionals.count < min { throw UsageError("'\(command)' needs \(what) (see: glimt-pure help \(command))") }
        if positionals.count > max {
            throw UsageError("'\(command)' takes \(max == 1 ? "one" : max == 0 ? "no" : "at most \(max)") \(what), got \(positionals.count)")
        }
    }

    private func given(_ declared: PartialKeyPath<Options>) -> [OptionSpec] {
        guard let options = options[keyPath: declared] as? OptionDeclaring else {
            preconditionFailure("\(declared) is not an option of \(Options.self)")
        }
        return options.specs.filter { checked($0) && line.isGiven($0) }
    }

    private func spec<O: DeclaredOption>(_ option: KeyPath<Options, O>) -> OptionSpec {
        let spec = options[keyPath: option].spec
        _ = checked(spec)
        return spec
    }

    /// An option read must be one the parser was given: a computed property of `Options`
    /// would be readable by key path without being declared.
    private func checked(_ spec: OptionSpec) -> Bool {
        precondition(line.accepts(spec), "'\(command)' reads \(spec.name), which it does not declare")
        return true
    }
}
