import Foundation

/// One subcommand: its help text and its run function. Commands only parse and print; the work
/// happens in GlimtPure.
protocol Command {
    static var name: String { get }
    static var summary: String { get }
    /// The full help text shown by `glimt-pure help <name>` and `<name> --help`.
    static var help: String { get }
    static var options: [OptionSpec] { get }
    static func run(_ args: Arguments) throws -> Int32
}

/// Standard output and error, unbuffered enough for progress lines.
enum Console {
    static func out(_ s: String) {
        FileHandle.standardOutput.write((s + "\n").data(using: .utf8)!)
    }

    static func err(_ s: String) {
        FileHandle.standardError.write((s + "\n").data(using: .utf8)!)
    }

    /// Pretty, key-sorted JSON of any Encodable value.
    static func json<T: Encodable>(_ value: T) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        out(String(decoding: try enc.encode(value), as: UTF8.self))
    }
}
