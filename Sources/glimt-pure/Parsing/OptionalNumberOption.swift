/// A number-valued option that has no default (a face number, a year, a time in a video):
/// nil when it is not given, checked as every number option is.
struct OptionalNumberOption<T: Comparable & LosslessStringConvertible>: ParsedOption {
    let spec: OptionSpec
    let range: ClosedRange<T>

    init(_ name: String, _ valueName: String, range: ClosedRange<T>, _ help: String) {
        spec = OptionSpec(name: name, value: valueName, help: help)
        self.range = range
    }

    func value(_ text: String?, command: String) throws -> T? {
        try text.map { try NumberOption<T>.number($0, option: spec.name, range: range) }
    }
}
