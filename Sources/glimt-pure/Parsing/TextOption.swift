/// An option whose value is taken as written (a file, a name), at most once.
struct TextOption: DeclaredOption {
    let spec: OptionSpec

    /// `defaultText` says in help what applies when it is not given (`this machine's`).
    init(_ name: String, _ valueName: String, completion: OptionSpec.Completion = .none, default defaultText: String? = nil, _ help: String) {
        spec = OptionSpec(name: name, value: valueName, completion: completion, defaultText: defaultText, help: help)
    }
}
