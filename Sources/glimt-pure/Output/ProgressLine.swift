import Foundation
import GlimtPure

/// One status line on stderr, rewritten in place on a terminal and cut to its width; elsewhere
/// (logs, pipes) only a line when its first word-group changes, or a line logged on purpose, so
/// logs stay readable.
final class ProgressLine {
    private var width = 0
    let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastHeading = ""

    /// The terminal's width in columns (80 when it does not say).
    var columns: Int {
        var size = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    func update(_ s: String) {
        if Console.quiet { return }
        guard isTerminal else {
            let heading = s.split(separator: " ").prefix(3).joined(separator: " ")
            if heading != lastHeading {
                lastHeading = heading
                FileHandle.standardError.write(Data((ShownPath.bytesEscaped(heading) + "\n").utf8))
            }
            return
        }
        // One column short of the edge: a line as wide as the terminal wraps on some of them.
        let shown = String(ShownPath.bytesEscaped(s).prefix(max(10, columns - 1)))
        let pad = max(0, width - shown.count)
        FileHandle.standardError.write(Data(("\r" + shown + String(repeating: " ", count: pad)).utf8))
        width = shown.count
    }

    /// A line for logs and pipes (not shown on a terminal, where `update` says it all).
    func log(_ s: String) {
        guard !Console.quiet, !isTerminal else { return }
        FileHandle.standardError.write(Data((ShownPath.bytesEscaped(s) + "\n").utf8))
    }

    func clear() {
        guard isTerminal, width > 0 else { return }
        FileHandle.standardError.write(("\r" + String(repeating: " ", count: width) + "\r").data(using: .utf8)!)
        width = 0
    }
}
