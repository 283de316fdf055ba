/// An option that takes one of a list of names (an enum's raw values, or a library's own list);
/// its default is the options type's own.
struct ChoiceOption<T>: ParsedOption {
    let spec: OptionSpec
    let defaultValue: T
    let names: [String]
    let named: @Sendable (String) -> T?

    init(_ name: String, default defaultValue: T, _ help: String) where T: RawRepresentable & CaseIterable, T.RawValue == String {
        self.init(name, names: T.allCases.map(\.rawValue), default: defaultValue, defaultText: defaultValue.rawValue, help) { T(rawValue: $0) }
    }

    /// One of `choices`, taken as written.
    init(_ name: String, choices: [String], default defaultValue: String, _ help: String) where T == String {
        self.init(name, names: choices, default: defaultValue, defaultText: defaultValue, help) { choices.contains($0) ? $0 : nil }
    }

    private init(
        _ name: String, names: [String], default defaultValue: T, defaultText: String, _ help: String, named: @escaping @Sendable (String) -> T?
    ) {
        spec = OptionSpec(name: name, value: names.joined(separator: "|"), completion: .choices(names), defaultText: defaultText, help: help)
        self.defaultValue = defaultValue
        self.names = names
        self.named = named
    }

    func value(_ text: String?, command: String) throws -> T {
        guard let text else { return defaultValue }
        guard let v = named(text) else { throw UsageError("\(spec.name) must be \(names.joined(separator: " or ")), not '\(text)'") }
        return v
    }
}
