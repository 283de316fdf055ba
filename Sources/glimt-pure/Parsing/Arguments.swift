import GlimtPure

/// A small command-line parser: `--name value`, `--name=value`, boolean flags, short spellings
/// (`-q`, `-v`, `-y`), repeatable options, positionals, and `--` to end options. Errors say
/// which option and which command.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Every option given, by its long name, in the order given.
    private(set) var given: [String] = []
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
            guard let spec = specs[written] else { throw UsageError(Self.unknown(written, command: command, known: options.map(\.name))) }
            let name = spec.name
            if !given.contains(name) { given.append(name) }
            if spec.value != nil {
                let value: String
                if let inline { value = inline } else {
                    guard i < tokens.count else { throw UsageError("option \(name) needs a value") }
                    value = tokens[i]
                    // `--out --library DIR` forgot the file name: an option is never taken as a
                    // value (write `--out=--odd-name` for a file that starts with dashes).
                    if value.hasPrefix("--") || specs[value] != nil {
                        throw UsageError("option \(name) needs a value, and '\(value)' is an option (write \(name)=\(value) if it really is the value)")
                    }
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
    func has(_ spec: OptionSpec) -> Bool { given.contains(spec.name) }

    /// A whole number from 1 up that has no default (a face number, a year).
    func count(_ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let s = value(name) else { return nil }
        guard let v = Int(s), range.contains(v) else { throw UsageError("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(s)'") }
        return v
    }

    /// A number with no default (a time in a video).
    func number(_ name: String, range: ClosedRange<Double>) throws -> Double? {
        guard let s = value(name) else { return nil }
        guard let v = Double(s), v.isFinite, range.contains(v) else { throw UsageError("\(name) must be a number in \(range.lowerBound)...\(range.upperBound), not '\(s)'") }
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
        if positionals.count > max { throw UsageError("'\(command)' takes \(max == 1 ? "one" : max == 0 ? "no" : "at most \(max)") \(what), got \(positionals.count)") }
    }

    /// An option the command does not take, with what was probably meant: a close spelling of
    /// one of its options, or the commands that do take it.
    static func unknown(_ option: String, command: String, known: [String]) -> String {
        let base = "unknown option \(option) for '\(command)'"
        if let close = Suggestion.closest(to: option, in: known) { return base + " (did you mean \(close)?)" }
        let elsewhere = commands.filter { $0.allOptions.contains { $0.name == option } }.map { $0.name }
        if !elsewhere.isEmpty { return base + "; it is an option of \(elsewhere.joined(separator: ", ")) (see: glimt-pure help \(command))" }
        return base + " (see: glimt-pure help \(command))"
    }

    /// Options that have no effect in this mode of the command: a usage error naming the first
    /// one given and where it does apply.
    func refuse(_ specs: [OptionSpec], because why: String) throws {
        if let spec = specs.first(where: has) { throw UsageError("\(spec.name) \(why)") }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}


/// The closest of some names to what was typed, for "did you mean": within two edits (a typo,
/// a missing or doubled letter, two letters swapped), and then only the closest.
enum Suggestion {
    static func closest(to typed: String, in names: [String]) -> String? {
        let scored = names.map { ($0, distance(typed, $0)) }.filter { $0.1 <= 2 && $0.1 < max(typed.count, 2) }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// Edit distance with adjacent swaps counting as one edit (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
