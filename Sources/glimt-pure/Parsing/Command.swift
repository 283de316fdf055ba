import Foundation
import GlimtPure

/// One subcommand: what it says of itself (from which help, man page and completions are
/// made) and its run function. Commands only parse and print; the work happens in GlimtPure.
protocol Command {
    static var name: String { get }
    static var summary: String { get }
    /// Usage lines, each after `glimt-pure `.
    static var usage: [String] { get }
    /// Paragraphs of explanation, blank-line separated.
    static var about: String { get }
    static var options: [OptionSpec] { get }
    /// What positional arguments complete to.
    static var positionals: OptionSpec.Completion { get }
    /// Words the first positional argument may be (`reference add|list|remove`); none for most.
    static var subcommands: [String] { get }
    static func run(_ args: Arguments) throws -> Int32
}

extension Command {
    static var positionals: OptionSpec.Completion { .file }
    static var subcommands: [String] { [] }
    /// Every option, the common ones included, as the parser takes them.
    static var allOptions: [OptionSpec] { options + CommonOptions.all }
    static var help: String { HelpText.command(self) }
}

/// Taken by every command.
enum CommonOptions {
    static let quiet = OptionSpec.flag("--quiet", short: "-q", "No progress lines or notes (results and errors still print)")
    static let verbose = OptionSpec.flag("--verbose", short: "-v", "Say more about each step")
    static let helpOption = OptionSpec.flag("--help", short: "-h", "Show this help")
    static let all = [quiet, verbose, helpOption]
    static let overwrite = OptionSpec.flag("--overwrite", short: "-y", "Replace an existing output file (otherwise it is refused)")
    static let library = OptionSpec.value("--library", "DIR", completion: .folder, default: LibraryLocation.standard, "Library folder")
    static let from = OptionSpec.value("--from", "DAY", "First day (YYYY-MM-DD)")
    static let to = OptionSpec.value("--to", "DAY", "Last day (YYYY-MM-DD, included)")
    static let json = OptionSpec.flag("--json", "Print JSON")
    static let person = OptionSpec.value("--person", "NAME", "Whose days: one of the library's people ('glimt-pure people' lists them; with one person it may be left out)")
}

/// The exit statuses every command uses, as help, the man page and the README give them.
enum ExitStatus {
    static let done: Int32 = 0, failed: Int32 = 1, ambiguousFace: Int32 = 2, usage: Int32 = 64, interrupted: Int32 = 130
    static let text = "0 done (film: the film was written, even without some files); 1 failed, or done without some files that could not be used (each named on stderr in one line); 2 a photo has several faces and no --face (or PHOTO:N) said which (the faces are listed); 64 a usage mistake; 130 interrupted (Ctrl-C)"
}

/// Standard output and error, unbuffered enough for progress lines.
enum Console {
    /// `-q`: no progress lines and no notes; results and errors still print.
    nonisolated(unsafe) static var quiet = false
    /// `-v`: notes on each step.
    nonisolated(unsafe) static var verbose = false

    /// A note on stderr, shown with `-v` only.
    static func note(_ s: String) {
        if verbose && !quiet { err(s) }
    }

    /// Something the person should know about the run as a whole (not about one input), on
    /// stderr unless `-q`.
    static func notice(_ s: String) {
        if !quiet { err(s) }
    }

    /// Standard output; a failed write (a full disk, a closed pipe) is an error, never a trap.
    /// File-name bytes that are not UTF-8 print as `\xe9` (see `FileName`).
    static func out(_ s: String) {
        write(STDOUT_FILENO, ShownPath.bytesEscaped(s) + "\n")
    }

    /// JSON keeps such bytes as they are held, so that a saved result names the same files.
    static func outJSON(_ s: String) {
        write(STDOUT_FILENO, s + "\n")
    }

    static func err(_ s: String, newline: Bool = true) {
        write(STDERR_FILENO, ShownPath.bytesEscaped(s) + (newline ? "\n" : ""))
    }

    nonisolated(unsafe) static var outputFailed: Int32 = 0

    private static func write(_ fd: Int32, _ s: String) {
        var bytes = Array(s.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if fd == STDOUT_FILENO && outputFailed == 0 { outputFailed = errno }
                return
            }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Pretty, key-sorted JSON of any Encodable value.
    static func json<T: Encodable>(_ value: T) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        outJSON(String(decoding: try enc.encode(value), as: UTF8.self))
    }
}
