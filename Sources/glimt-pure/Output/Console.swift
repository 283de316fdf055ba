import Foundation
import GlimtPure

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
        outJSON(String(decoding: try JSONOutput.encoder(pretty: true).encode(value), as: UTF8.self))
    }
}
