/// A file name as printed in a one-line message: control characters (a newline in a name is
/// legal, and so are ESC and the C1 controls a terminal takes for commands) are escaped, so one
/// problem stays one line whatever the name holds and a name never drives the terminal; bytes
/// that are not UTF-8 (kept as `FileName` escapes) show as `\xe9`.
public enum ShownPath {
    public static func escaped(_ path: String) -> String { escaping(path, controls: true) }

    /// `s` with only the non-UTF-8 bytes of file names shown as `\\xe9` (for whole lines of
    /// output, whose newlines are meant).
    public static func bytesEscaped(_ s: String) -> String { escaping(s, controls: false) }

    private static func escaping(_ s: String, controls: Bool) -> String {
        guard s.unicodeScalars.contains(where: { FileName.isEscape($0) || (controls && isControl($0)) }) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case _ where FileName.isEscape(scalar): out += "\\x" + format2(UInt32(FileName.escapedByte(scalar)!))
            case _ where !controls || !isControl(scalar): out.unicodeScalars.append(scalar)
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += scalar.value < 0x80 ? "\\x" + format2(scalar.value) : "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7f...0x9f).contains(s.value) }

    private static func format2(_ v: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }
}
