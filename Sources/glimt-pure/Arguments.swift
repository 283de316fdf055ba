import GlimtPure

/// A small command-line parser: `--name value`, `--name=value`, boolean flags, short spellings
/// (`-q`, `-v`, `-y`), repeatable options, positionals, and `--` to end options. Errors say
/// which option and which command.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    let command: String

    init(_ tokens: [String], command: String, options: [OptionSpec]) throws {
        self.command = command
        var specs: [String: OptionSpec] = [:]
        for spec in options {
            specs[spec.name] = spec
            if let short = spec.short { specs[short] = spec }
        }
        var i = 0
        var onlyPositionals = false
        while i < tokens.count {
            let token = tokens[i]
            i += 1
            if onlyPositionals || !token.hasPrefix("-") || token == "-" {
                positionals.append(token)
                continue
            }
            if token == "--" { onlyPositionals = true; continue }
            var written = token
            var inline: String?
            if let eq = token.firstIndex(of: "=") {
                written = String(token[..<eq])
                inline = String(token[token.index(after: eq)...])
            }
            guard let spec = specs[written] else {
                throw UsageError("unknown option \(written) for '\(command)' (see: glimt-pure help \(command))")
            }
            let name = spec.name
            if spec.value != nil {
                let value: String
                if let inline { value = inline } else {
                    guard i < tokens.count else { throw UsageError("option \(name) needs a value") }
                    value = tokens[i]
                    i += 1
                }
                if !spec.repeatable, values[name] != nil { throw UsageError("option \(name) given twice") }
                values[name, default: []].append(value)
            } else {
                guard inline == nil else { throw UsageError("option \(name) takes no value") }
                flags.insert(name)
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String, default d: Int, range: ClosedRange<Int>) throws -> Int {
        guard let s = value(name) else { return d }
        guard let v = Int(s), range.contains(v) else { throw UsageError("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(s)'") }
        return v
    }

    func double(_ name: String, default d: Double, range: ClosedRange<Double>) throws -> Double {
        guard let s = value(name) else { return d }
        guard let v = Double(s), v.isFinite, range.contains(v) else { throw UsageError("\(name) must be a number in \(range.lowerBound)...\(range.upperBound), not '\(s)'") }
        return v
    }

    /// One of `choices` (an enum's raw values).
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, default d: T) throws -> T where T.RawValue == String {
        guard let s = value(name) else { return d }
        guard let v = T(rawValue: s) else {
            throw UsageError("\(name) must be \(T.allCases.map(\.rawValue).joined(separator: " or ")), not '\(s)'")
        }
        return v
    }

    /// A day `YYYY-MM-DD` that the calendar has.
    func day(_ name: String) throws -> String? {
        guard let s = value(name) else { return nil }
        return try Self.day(s, name: name)
    }

    /// `s` when it is a calendar day, else a usage error (named `name` when it is an option's).
    static func day(_ s: String, name: String? = nil) throws -> String {
        if let problem = CalendarDay.problem(s) { throw UsageError((name.map { "\($0): " } ?? "") + problem) }
        return s
    }

    /// `--from` and `--to`, each a calendar day, in order.
    func dayRange() throws -> (from: String?, to: String?) {
        let (from, to) = (try day("--from"), try day("--to"))
        if let from, let to, from > to { throw UsageError("--from \(from) is after --to \(to)") }
        return (from, to)
    }

    func requirePositionals(_ what: String, min: Int = 1, max: Int = Int.max) throws {
        if positionals.count < min { throw UsageError("'\(command)' needs \(what) (see: glimt-pure help \(command))") }
        if positionals.count > max { throw UsageError("'\(command)' takes \(max == 1 ? "one" : "at most \(max)") \(what), got \(positionals.count)") }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
