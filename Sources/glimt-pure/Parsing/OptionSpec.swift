/// One option of a command, with everything said about it: the parser, the help text, the man
/// page and the shell completions are all made from these, so they cannot disagree. A default
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

    static func flag(_ name: String, short: String? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: nil, repeatable: false, help: help, completion: .none, defaultText: nil)
    }

    static func value(_ name: String, _ value: String, repeatable: Bool = false, completion: Completion = .none, default defaultText: String? = nil,
                      _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, value: value, repeatable: repeatable, help: help, completion: completion, defaultText: defaultText)
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

/// A number-valued option: its default and range are the options type's own, shown in help
/// from there and enforced by the parser.
struct NumberOption<T: Comparable & LosslessStringConvertible> {
    let spec: OptionSpec
    let defaultValue: T
    let range: ClosedRange<T>

    init(_ name: String, _ valueName: String, default defaultValue: T, range: ClosedRange<T>, _ help: String) {
        spec = .value(name, valueName, default: Self.text(defaultValue), help)
        self.defaultValue = defaultValue
        self.range = range
    }

    /// The value given, within the range; the default when the option is not given.
    func value(_ args: Arguments) throws -> T { try given(args) ?? defaultValue }

    /// The value given, within the range; nil when the option is not given.
    func given(_ args: Arguments) throws -> T? {
        guard let s = args.value(spec.name) else { return nil }
        let whole = T.self == Int.self
        guard let v = T(s), (v as? Double)?.isFinite ?? true, (v as? Float)?.isFinite ?? true, range.contains(v) else {
            throw UsageError("\(spec.name) must be \(whole ? "a whole number" : "a number") in \(Self.text(range.lowerBound))...\(Self.text(range.upperBound)), not '\(s)'")
        }
        return v
    }

    /// `8` for 8.0, `0.45`, `640`: numbers as a person writes them.
    static func text(_ v: T) -> String {
        if let d = v as? Double, d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        if let f = v as? Float, f == f.rounded(), abs(f) < 1e7 { return String(Int(f)) }
        return "\(v)"
    }
}

/// An option that takes one of an enum's raw values; its default is the options type's own.
struct ChoiceOption<T: RawRepresentable & CaseIterable> where T.RawValue == String {
    let spec: OptionSpec
    let defaultValue: T

    init(_ name: String, default defaultValue: T, _ help: String) {
        let names = T.allCases.map(\.rawValue)
        spec = .value(name, names.joined(separator: "|"), completion: .choices(names), default: defaultValue.rawValue, help)
        self.defaultValue = defaultValue
    }

    func value(_ args: Arguments) throws -> T { try given(args) ?? defaultValue }

    func given(_ args: Arguments) throws -> T? {
        guard let s = args.value(spec.name) else { return nil }
        guard let v = T(rawValue: s) else {
            throw UsageError("\(spec.name) must be \(T.allCases.map(\.rawValue).joined(separator: " or ")), not '\(s)'")
        }
        return v
    }
}
