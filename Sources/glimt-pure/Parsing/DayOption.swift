import GlimtPure

/// An option that takes a calendar day, `YYYY-MM-DD`.
struct DayOption: ParsedOption {
    let spec: OptionSpec

    init(_ name: String, _ help: String) {
        spec = OptionSpec(name: name, value: "DAY", help: help)
    }

    func value(_ text: String?, command: String) throws -> String? {
        try text.map { try Self.day($0, option: spec.name) }
    }

    /// `s` when it is a day the calendar has, else a usage error (naming `option`, when it is
    /// an option's; a DAY argument is named by the problem alone).
    static func day(_ s: String, option: String? = nil) throws -> String {
        if let problem = CalendarDay.problem(s) { throw UsageError((option.map { "\($0): " } ?? "") + problem) }
        return s
    }
}
