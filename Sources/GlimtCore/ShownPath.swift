/// A file name as printed in a one-line message: control characters (a newline in a name is
/// legal) are escaped, so one problem stays one line whatever the name holds; bytes that are not
/// UTF-8 (kept as `FileName` escapes) show as `\xe9`.
public enum ShownPath {
    public static func escaped(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: { isControl($0) || FileName.isEscape($0) }) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case _ where FileName.isEscape(scalar): out += "\\x" + format2(UInt32(FileName.escapedByte(scalar)!))
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\x" + String(format2(scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `s` with only the non-UTF-8 bytes of file names shown as `\\xe9` (for whole lines of
    /// output, whose newlines are meant).
    public static func bytesEscaped(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: FileName.isEscape) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            if let byte = FileName.escapedByte(scalar) { out += "\\x" + format2(UInt32(byte)) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || s.value == 0x7f }

    private static func format2(_ v: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
    }
}
