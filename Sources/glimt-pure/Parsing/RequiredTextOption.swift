/// An option the command cannot do without (`film --out FILE`): reading it when it was not
/// given is the usage error, `'film' needs --out FILE (the film to write, ...)`.
struct RequiredTextOption: ParsedOption {
    let spec: OptionSpec
    /// What the value is, as the usage error says it.
    let what: String

    init(_ name: String, _ valueName: String, completion: OptionSpec.Completion = .none, what: String, _ help: String) {
        spec = OptionSpec(name: name, value: valueName, completion: completion, help: help)
        self.what = what
    }

    func value(_ text: String?, command: String) throws -> String {
        guard let text else { throw UsageError("'\(command)' needs \(spec.label) (\(what))") }
        return text
    }
}
