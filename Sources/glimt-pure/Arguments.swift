/// A small command-line parser: `--name value`, `--name=value`, boolean flags, repeatable
/// options, positionals, and `--` to end options. Errors say which option and which command.
struct OptionSpec {
    let name: String
    let takesValue: Bool
    let repeatable: Bool

    static func flag(_ name: String) -> OptionSpec { OptionSpec(name: name, takesValue: false, repeatable: false) }
    static func value(_ name: String, repeatable: Bool = false) -> OptionSpec { OptionSpec(name: name, takesValue: true, repeatable: repeatable) }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    let command: String

    init(_ tokens: [String], command: String, options: [OptionSpec]) throws {
        self.command = command
        let specs = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
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
            var name = token
            var inline: String?
            if let eq = token.firstIndex(of: "=") {
                name = String(token[..<eq])
                inline = String(token[token.index(after: eq)...])
            }
            guard let spec = specs[name] else {
                throw UsageError("unknown option \(name) for '\(command)' (see: glimt-pure help \(command))")
            }
            if spec.takesValue {
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

    func requirePositionals(_ what: String, min: Int = 1, max: Int = Int.max) throws {
        if positionals.count < min { throw UsageError("'\(command)' needs \(what) (see: glimt-pure help \(command))") }
        if positionals.count > max { throw UsageError("'\(command)' takes \(max == 1 ? "one" : "at most \(max)") \(what), got \(positionals.count)") }
    }
}
