/// One option of a command, with everything said about it: the parser, the help text, the man
/// page and the shell completions are all made from these, so they cannot disagree.
struct OptionSpec {
    /// What a value (or a positional) completes to in a shell.
    enum Completion: Equatable {
        case none, file, folder
        case choices([String])
    }

    let name: String
    let short: String?
    /// The value's name in help (`FILE`), nil for a flag.
    let value: String?
    let repeatable: Bool
    let help: String
    let completion: Completion

    static func flag(_ name: String, short: String? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: nil, repeatable: false, help: help, completion: .none)
    }

    static func value(_ name: String, _ value: String, repeatable: Bool = false, completion: Completion = .none, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, value: value, repeatable: repeatable, help: help, completion: completion)
    }

    /// `-y, --overwrite` or `--out FILE`, as help shows it.
    var label: String {
        (short.map { "\($0), " } ?? "") + name + (value.map { " \($0)" } ?? "")
    }
}
