/// The text of a JSON file a person may have edited, or saved on another system, before it is
/// decoded: its encoding made UTF-8 (a UTF-8 byte order mark dropped; UTF-16 and UTF-32, by
/// their mark or by where the zero bytes of the first characters lie, as RFC 8259's predecessor
/// told them apart), and a key given twice in one object found, which the decoders take
/// silently (the first value wins). CRLF line ends are JSON's whitespace and need nothing.
enum JSONText {
    /// `bytes` as UTF-8; a one-line reason when they are not text in one of JSON's encodings.
    static func utf8(_ bytes: [UInt8]) throws -> [UInt8] {
        let b = bytes
        func at(_ i: Int) -> UInt8? { i < b.count ? b[i] : nil }
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { return try checkedUTF8(Array(b.dropFirst(3)), offset: 3) }
        if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return try utf32(Array(b.dropFirst(4)), bigEndian: true) }
        if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return try utf32(Array(b.dropFirst(4)), bigEndian: false) }
        if b.starts(with: [0xFE, 0xFF]) { return try utf16(Array(b.dropFirst(2)), bigEndian: true) }
        if b.starts(with: [0xFF, 0xFE]) { return try utf16(Array(b.dropFirst(2)), bigEndian: false) }
        // JSON text starts with two ASCII characters, so zeros among its first bytes say which.
        if b.count >= 4, at(0) == 0, at(1) == 0, at(2) == 0, at(3) != 0 { return try utf32(b, bigEndian: true) }
        if b.count >= 4, at(0) != 0, at(1) == 0, at(2) == 0, at(3) == 0 { return try utf32(b, bigEndian: false) }
        if b.count >= 2, at(0) == 0, at(1) != 0 { return try utf16(b, bigEndian: true) }
        if b.count >= 2, at(0) != 0, at(1) == 0 { return try utf16(b, bigEndian: false) }
        return try checkedUTF8(b, offset: 0)
    }

    private static func checkedUTF8(_ b: [UInt8], offset: Int) throws -> [UInt8] {
        var i = 0
        while i < b.count {
            let lead = b[i]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: throw notUTF8(at: i + offset, lead)
            }
            guard i + length <= b.count else { throw notUTF8(at: i + offset, lead) }
            for k in 1..<max(length, 1) where b[i + k] & 0xC0 != 0x80 { throw notUTF8(at: i + k + offset, b[i + k]) }
            // Overlong forms, surrogates and past U+10FFFF.
            if (lead == 0xE0 && b[i + 1] < 0xA0) || (lead == 0xED && b[i + 1] > 0x9F) || (lead == 0xF0 && b[i + 1] < 0x90)
                || (lead == 0xF4 && b[i + 1] > 0x8F)
            {
                throw notUTF8(at: i + 1 + offset, b[i + 1])
            }
            i += length
        }
        return b
    }

    private static func notUTF8(at i: Int, _ byte: UInt8) -> GlimtError {
        GlimtError("not UTF-8 text (byte \(i + 1) is 0x\(String(byte, radix: 16, uppercase: false).leftPadded(2))); save it as UTF-8")
    }

    private static func utf16(_ b: [UInt8], bigEndian: Bool) throws -> [UInt8] {
        guard b.count % 2 == 0 else { throw GlimtError("broken UTF-16 text (an odd number of bytes); save it as UTF-8") }
        let units: [UInt16] = stride(from: 0, to: b.count, by: 2).map { i in
            let (high, low) = bigEndian ? (b[i], b[i + 1]) : (b[i + 1], b[i])
            return UInt16(high) << 8 | UInt16(low)
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var it = units.makeIterator(), decoder = UTF16()
        while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s): out += Array(String(Character(s)).utf8)
            case .emptyInput: return out
            case .error: throw GlimtError("broken UTF-16 text (a character cut in half); save it as UTF-8")
            }
        }
    }

    private static func utf32(_ b: [UInt8], bigEndian: Bool) throws -> [UInt8] {
        guard b.count % 4 == 0 else { throw GlimtError("broken UTF-32 text (its length is not a multiple of 4 bytes); save it as UTF-8") }
        var out: [UInt8] = []
        for i in stride(from: 0, to: b.count, by: 4) {
            let bytes: [UInt8] = bigEndian ? Array(b[i..<(i + 4)]) : Array(b[i..<(i + 4)].reversed())
            let v = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard let s = Unicode.Scalar(v) else {
                throw GlimtError("broken UTF-32 text (0x\(String(v, radix: 16)) is no character); save it as UTF-8")
            }
            out += Array(String(Character(s)).utf8)
        }
        return out
    }

    /// `choices[3]: the key "at" is given twice`, for the first key given twice in one object of
    /// `text` (UTF-8), keys compared as the decoder compares them (escapes undone); nil when
    /// there is none, and when the text stops being JSON first (the decoder says what is wrong).
    static func duplicateKey(in text: [UInt8]) -> String? {
        var scanner = Scanner(text)
        return scanner.duplicate()
    }

    private struct Scanner {
        let b: [UInt8]
        var i = 0
        /// The containers the scan is inside, outermost first.
        var stack: [Container] = []

        struct Container {
            var keys: Set<String>?  // nil: an array
            var key = ""
            var index = 0
        }

        init(_ b: [UInt8]) { self.b = b }

        /// Where the innermost object lies: `choices[3]`, or "the top level".
        var place: String {
            var s = ""
            for c in stack.dropLast() {
                if c.keys == nil { s += "[\(c.index)]" } else { s += (s.isEmpty ? "" : ".") + c.key }
            }
            return s.isEmpty ? "the top level" : s
        }

        mutating func skipSpace() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        }

        /// A string at `i` (its opening quote), escapes undone; nil when it is not one.
        mutating func string() -> String? {
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            var units: [UInt16] = []
            var raw: [UInt8] = []
            func flush() {
                if !raw.isEmpty { units += String(decoding: raw, as: UTF8.self).utf16; raw = [] }
            }
            while i < b.count {
                let c = b[i]
                i += 1
                if c == UInt8(ascii: "\"") {
                    flush()
                    return String(decoding: units, as: UTF16.self)
                }
                guard c == UInt8(ascii: "\\") else { raw.append(c); continue }
                guard i < b.count else { return nil }
                let e = b[i]
                i += 1
                flush()
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): units.append(UInt16(e))
                case UInt8(ascii: "b"): units.append(8)
                case UInt8(ascii: "f"): units.append(12)
                case UInt8(ascii: "n"): units.append(10)
                case UInt8(ascii: "r"): units.append(13)
                case UInt8(ascii: "t"): units.append(9)
                case UInt8(ascii: "u"):
                    guard i + 4 <= b.count, let v = UInt16(String(decoding: b[i..<(i + 4)], as: UTF8.self), radix: 16) else { return nil }
                    units.append(v)
                    i += 4
                default: return nil
                }
            }
            return nil
        }

        mutating func duplicate() -> String? {
            skipSpace()
            // Each turn reads one value, then what follows it up to the next value.
            while i < b.count {
                // A value.
                switch b[i] {
                case UInt8(ascii: "{"):
                    i += 1
                    stack.append(Container(keys: []))
                    skipSpace()
                    if i < b.count, b[i] == UInt8(ascii: "}") {
                        i += 1; stack.removeLast()
                    } else {
                        if let found = key() { return found }
                        if i < 0 { return nil }
                        continue
                    }
                case UInt8(ascii: "["):
                    i += 1
                    stack.append(Container(keys: nil))
                    skipSpace()
                    if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; stack.removeLast() } else { continue }
                case UInt8(ascii: "\""):
                    guard string() != nil else { return nil }
                default:
                    let start = i
                    while i < b.count, !",]} \t\r\n".utf8.contains(b[i]) { i += 1 }
                    guard i > start else { return nil }
                }
                // What follows it: a comma, or the ends of containers.
                while true {
                    skipSpace()
                    guard !stack.isEmpty else { return nil }
                    guard i < b.count else { return nil }
                    let c = b[i]
                    i += 1
                    if c == UInt8(ascii: ",") {
                        if stack[stack.count - 1].keys == nil {
                            stack[stack.count - 1].index += 1
                            skipSpace()
                        } else {
                            skipSpace()
                            if let found = key() { return found }
                            if i < 0 { return nil }
                        }
                        break
                    }
                    let isObject = stack[stack.count - 1].keys != nil
                    guard c == UInt8(ascii: isObject ? "}" : "]") else { return nil }
                    stack.removeLast()
                }
            }
            return nil
        }

        /// A key and its colon, in the innermost object; the duplicate's description when the
        /// object has it already. Sets `i` below 0 when the text is not JSON there.
        mutating func key() -> String? {
            guard let k = string() else { i = -1; return nil }
            if stack[stack.count - 1].keys!.contains(k) {
                stack[stack.count - 1].key = k
                return "\(place): the key \"\(k)\" is given twice"
            }
            stack[stack.count - 1].keys!.insert(k)
            stack[stack.count - 1].key = k
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { i = -1; return nil }
            i += 1
            skipSpace()
            return nil
        }
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
