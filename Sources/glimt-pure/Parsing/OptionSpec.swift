/// One option as the parser, the help text, the man page and the shell completions see it: they
/// are all made from these, so they cannot disagree. Commands do not build these by hand: each
/// kind of option (`FlagOption`, `TextOption`, `NumberOption`, ...) makes its own. A default
/// shown here is read from the options type the value goes into (see `NumberOption`), never
/// written a second time.
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
    /// The default as help shows it, `(default 8)`; nil when there is none to show.
    let defaultText: String?

    init(
        name: String, short: String? = nil, value: String?, repeatable: Bool = false, completion: Completion = .none, defaultText: String? = nil,
        help: String
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
        self.completion = completion
        self.defaultText = defaultText
    }

    /// `-y, --overwrite` or `--out FILE`, as help shows it.
    var label: String {
        (short.map { "\($0), " } ?? "") + name + (value.map { " \($0)" } ?? "")
    }

    /// The help sentence with its default and repeatability, as help and the man page print it.
    var fullHelp: String {
        help + (defaultText.map { " (default \($0))" } ?? "") + (repeatable ? " (repeatable)" : "")
    }
}
