/// An option that may be given several times (`--ref PHOTO --ref PHOTO`): every value, in order.
struct ListOption: DeclaredOption {
    let spec: OptionSpec

    init(_ name: String, _ valueName: String, completion: OptionSpec.Completion = .none, _ help: String) {
        spec = OptionSpec(name: name, value: valueName, repeatable: true, completion: completion, help: help)
    }
}
