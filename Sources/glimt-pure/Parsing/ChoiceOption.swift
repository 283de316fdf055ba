/// An option that takes one of an enum's raw values; its default is the options type's own.
struct ChoiceOption<T: RawRepresentable & CaseIterable>: ParsedOption where T.RawValue == String {
    let spec: OptionSpec
    let defaultValue: T

    init(_ name: String, default defaultValue: T, _ help: String) {
        let names = T.allCases.map(\.rawValue)
        spec = OptionSpec(
            name: name, value: names.joined(separator: "|"), completion: .choices(names), defaultText: defaultValue.rawValue, help: help)
        self.defaultValue = defaultValue
    }

    func value(_ text: String?, command: String) throws -> T {
        guard let text else { return defaultValue }
        guard let v = T(rawValue: text) else {
            throw UsageError("\(spec.name) must be \(T.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'")
        }
        return v
    }
}
