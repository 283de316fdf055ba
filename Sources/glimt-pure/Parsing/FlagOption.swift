/// An option without a value (`--json`, `-y`): given or not.
struct FlagOption: DeclaredOption {
    let spec: OptionSpec

    init(_ name: String, short: String? = nil, _ help: String) {
        spec = OptionSpec(name: name, short: short, value: nil, help: help)
    }
}
