import Foundation
import GlimtPure

/// One status line on stderr, rewritten in place on a terminal; elsewhere (logs, pipes) only a
/// line when its first word-group changes, so logs stay readable.
final class ProgressLine {
    private var width = 0
    private let terminal = isatty(STDERR_FILENO) == 1
    private var lastHeading = ""

    func update(_ s: String) {
        if Console.quiet { return }
        guard terminal else {
            let heading = s.split(separator: " ").prefix(3).joined(separator: " ")
            if heading != lastHeading {
                lastHeading = heading
                FileHandle.standardError.write(Data((ShownPath.bytesEscaped(heading) + "\n").utf8))
            }
            return
        }
        let pad = max(0, width - s.count)
        FileHandle.standardError.write(Data(("\r" + ShownPath.bytesEscaped(s) + String(repeating: " ", count: pad)).utf8))
        width = s.count
    }

    func clear() {
        guard terminal, width > 0 else { return }
        FileHandle.standardError.write(("\r" + String(repeating: " ", count: width) + "\r").data(using: .utf8)!)
        width = 0
    }
}
