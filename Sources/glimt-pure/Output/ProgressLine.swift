import Foundation
import GlimtPure

/// One status line on stderr. On a terminal it is rewritten in place and cut to the width.
/// Elsewhere (logs, pipes, a systemd journal) nothing can be rewritten, so each line printed is
/// whole, and only some are printed: the first of each step (when its first three words change:
/// the next video, the next day) and then one every `interval` seconds, so that a log shows what
/// ran and how far it got without a line per frame.
final class ProgressLine {
    static let interval = 10.0

    private var width = 0
    let isTerminal: Bool
    private let write: (String) -> Void
    private let now: () -> Double
    private var lastHeading: String?
    private var lastPrinted = -Double.infinity

    /// `write` and `now` are stderr and the clock, but for tests.
    init(
        isTerminal: Bool = isatty(STDERR_FILENO) == 1, write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) },
        now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.isTerminal = isTerminal
        self.write = write
        self.now = now
    }

    /// The terminal's width in columns (80 when it does not say).
    var columns: Int {
        var size = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    func update(_ s: String) {
        if Console.quiet { return }
        guard isTerminal else {
            let heading = s.split(separator: " ").prefix(3).joined(separator: " ")
            let t = now()
            if heading != lastHeading || t - lastPrinted >= Self.interval {
                lastHeading = heading
                lastPrinted = t
                write(ShownPath.bytesEscaped(s) + "\n")
            }
            return
        }
        // One column short of the edge: a line as wide as the terminal wraps on some of them.
        let shown = String(ShownPath.bytesEscaped(s).prefix(max(10, columns - 1)))
        let pad = max(0, width - shown.count)
        write("\r" + shown + String(repeating: " ", count: pad))
        width = shown.count
    }

    /// A line for logs and pipes (not shown on a terminal, where `update` says it all).
    func log(_ s: String) {
        guard !Console.quiet, !isTerminal else { return }
        write(ShownPath.bytesEscaped(s) + "\n")
    }

    func clear() {
        guard isTerminal, width > 0 else { return }
        write("\r" + String(repeating: " ", count: width) + "\r")
        width = 0
    }
}
