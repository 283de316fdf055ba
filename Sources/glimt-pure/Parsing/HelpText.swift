/// Help texts, rendered from the commands' own definitions.
enum HelpText {
    static let width = 100
    static let column = 25

    static func command(_ c: any Command.Type) -> String {
        var lines = c.usage.enumerated().map { i, u in (i == 0 ? "USAGE: " : "       ") + "glimt-pure " + u }
        lines.append("")
        lines.append(c.about)
        lines.append("")
        lines.append("OPTIONS:")
        lines += c.allOptions.map(option)
        lines.append("")
        lines += wrap("EXIT STATUS: " + ExitStatus.text, indent: "")
        return lines.joined(separator: "\n")
    }

    static func option(_ o: OptionSpec) -> String {
        let label = "  " + o.label
        let text = o.fullHelp
        let pad = String(repeating: " ", count: column)
        var body = wrap(text, indent: pad, width: width)
        if label.count < column - 1 {
            body[0] = label + String(repeating: " ", count: column - label.count) + body[0].dropFirst(column)
            return body.joined(separator: "\n")
        }
        return ([label] + body).joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, each starting with `indent`.
    static func wrap(_ text: String, indent: String, width: Int = width) -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
