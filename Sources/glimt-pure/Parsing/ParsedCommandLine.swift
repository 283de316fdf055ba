/// A command's words, parsed against the options it declares: `--name value`, `--name=value`,
/// flags, short spellings (`-q`, `-v`, `-y`), repeatable options, positionals, and `--` to end
/// options. Errors say which option and which command. Commands read it only through
/// `Arguments`, by their options' key paths.
struct ParsedCommandLine {
    let command: String
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// The long names of the options the command takes.
    private let accepted: Set<String>

    /// `elsewhere` names the other commands that take an option this one does not.
    init(_ tokens: [String], command: String, options: [OptionSpec], elsewhere: (String) -> [String]) throws {
        self.command = command
        var specs: [String: OptionSpec] = [:]
        for spec in options {
            specs[spec.name] = spec
            if let short = spec.short { specs[short] = spec }
        }
        accepted = Set(options.map(\.name))
        var i = 0
        var onlyPositionals = false
        while i < tokens.count {
            let token = tokens[i]
            i += 1
            if onlyPositionals || !token.hasPrefix("-") || token == "-" {
                positionals.append(token)
                continue
            }
            if token == "--" { onlyPositionals = true; continue }
            var written = token
            var inline: String?
            if let eq = token.firstIndex(of: "=") {
                written = String(token[..<eq])
                inline = String(token[token.index(after: eq)...])
            }
            guard let spec = specs[written] else {
                throw UsageError(Self.unknown(written, command: command, known: options.map(\.name), elsewhere: elsewhere(written)))
            }
            let name = spec.name
            if spec.value != nil {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < tokens.count else { throw UsageError("option \(name) needs a value") }
                    value = tokens[i]
                    // `--out --library DIR` forgot the file name: an option is never taken as a
                    // value (write `--out=--odd-name` for a file that starts with dashes).
                    if value.hasPrefix("--") || specs[value] != nil {
                        throw UsageError(
                            "option \(name) needs a value, and '\(value)' is an option (write \(name)=\(value) if it really is the value)")
                    }
                    i += 1
                }
                if !spec.repeatable, values[name] != nil { throw UsageError("option \(name) given twice") }
                values[name, default: []].append(value)
            } else {
                guard inline == nil else { throw UsageError("option \(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    /// Whether the command takes `spec` (what it reads, it must have declared).
    func accepts(_ spec: OptionSpec) -> Bool { accepted.contains(spec.name) }

    func isGiven(_ spec: OptionSpec) -> Bool { flags.contains(spec.name) || values[spec.name] != nil }

    /// The value given (the last, for a repeatable option).
    func value(of spec: OptionSpec) -> String? { values[spec.name]?.last }

    func values(of spec: OptionSpec) -> [String] { values[spec.name] ?? [] }

    /// An option the command does not take, with what was probably meant: a close spelling of
    /// one of its options, or the commands that do take it.
    static func unknown(_ option: String, command: String, known: [String], elsewhere: [String]) -> String {
        let base = "unknown option \(option) for '\(command)'"
        if let close = Suggestion.closest(to: option, in: known) { return base + " (did you mean \(close)?)" }
        if !elsewhere.isEmpty { return base + "; it is an option of \(elsewhere.joined(separator: ", ")) (see: glimt-pure help \(command))" }
        return base + " (see: glimt-pure help \(command))"
    }
}
