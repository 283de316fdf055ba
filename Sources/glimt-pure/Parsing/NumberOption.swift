/// A number-valued option: its default and range are the options type's own, shown in help
/// from there and enforced by the parser.
struct NumberOption<T: Comparable & LosslessStringConvertible>: ParsedOption {
    let spec: OptionSpec
    let defaultValue: T
    let range: ClosedRange<T>

    init(_ name: String, _ valueName: String, default defaultValue: T, range: ClosedRange<T>, _ help: String) {
        spec = OptionSpec(name: name, value: valueName, defaultText: Self.text(defaultValue), help: help)
        self.defaultValue = defaultValue
        self.range = range
    }

    /// The value given, within the range; the default when the option is not given.
    func value(_ text: String?, command: String) throws -> T {
        try text.map { try Self.number($0, option: spec.name, range: range) } ?? defaultValue
    }

    /// `s` as a number within `range`, or the usage error every number option gives.
    static func number(_ s: String, option: String, range: ClosedRange<T>) throws -> T {
        let whole = T.self == Int.self
        guard let v = T(s), (v as? Double)?.isFinite ?? true, (v as? Float)?.isFinite ?? true, range.contains(v) else {
            throw UsageError(
                "\(option) must be \(whole ? "a whole number" : "a number") in \(text(range.lowerBound))...\(text(range.upperBound)), not '\(s)'")
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
