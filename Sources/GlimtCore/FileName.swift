import Foundation

/// File names on Linux are bytes, not always UTF-8 (a name from an old camera card, a Windows
/// archive in Latin-1: `caf\xe9.mp4`). Swift strings cannot hold a byte that is not UTF-8, so a
/// name read from the system keeps each such byte as one of 128 private-use characters,
/// U+F780 + (byte - 0x80), and every call that hands a path back to the system turns them back
/// into the same bytes. A name round-trips exactly, through JSON and the library too; printed,
/// such a byte shows as `\xe9` (see `ShownPath`). A name that really holds one of those
/// private-use characters in UTF-8 would be read as the byte: no camera writes them.
public enum FileName {
    static let escapeBase: UInt32 = 0xF700

    /// A path from the system's bytes (readdir, argv).
    public static func string<C: Collection>(fromBytes bytes: C) -> String where C.Element == UInt8 {
        let b = Array(bytes)
        if let valid = String(validating: b, as: UTF8.self), !valid.unicodeScalars.contains(where: isEscape) { return valid }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < b.count {
            if let (scalar, length) = decodeOne(b, at: i), !isEscape(scalar) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(escape(b[i]))
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes the system knows the path by.
    public static func bytes(_ path: String) -> [UInt8] {
        guard path.unicodeScalars.contains(where: isEscape) else { return Array(path.utf8) }
        var out: [UInt8] = []
        for scalar in path.unicodeScalars {
            if isEscape(scalar) { out.append(UInt8(scalar.value - escapeBase)) } else { out += Array(String(scalar).utf8) }
        }
        return out
    }

    /// Runs `body` with the path as the system's NUL-terminated bytes.
    public static func withPath<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let raw = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The command line as given, names with non-UTF-8 bytes included (`CommandLine.arguments`
    /// replaces those bytes with U+FFFD and the file is lost).
    public static var arguments: [String] {
        (0..<Int(CommandLine.argc)).map { i in
            guard let arg = CommandLine.unsafeArgv[i] else { return "" }
            return string(fromBytes: UnsafeBufferPointer(start: UnsafeRawPointer(arg).assumingMemoryBound(to: UInt8.self), count: strlen(arg)))
        }
    }

    /// A handle for reading the file (nil when it cannot be opened). Non-blocking open: a FIFO
    /// never hangs it.
    public static func handleForReading(_ path: String) -> FileHandle? {
        let fd = withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        return fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : nil
    }

    /// A file's whole contents, up to `limit` bytes (nil when it cannot be read or is larger).
    public static func contents(of path: String, limit: Int) -> [UInt8]? { try? read(path, limit: limit) }

    /// A regular file's whole contents, at most `limit` bytes; else a one-line error naming it.
    public static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw GlimtError(FileStatus.reason(errno), path: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw GlimtError(FileStatus.reason(errno), path: path) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw GlimtError("not a regular file", path: path) }
        guard Int(st.st_size) <= limit else { throw GlimtError("larger than \(limit >> 20) MB", path: path) }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw GlimtError(FileStatus.reason(errno), path: path) }
            if n == 0 { break }  // shrank while reading
            done += n
        }
        return Array(out[0..<done])
    }

    /// The first `count` bytes of a regular file (fewer when it is shorter); nil when it cannot be read.
    public static func prefix(of path: String, count: Int) -> [UInt8]? {
        let fd = withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        return n < 0 ? nil : Array(out[0..<n])
    }

    static func isEscape(_ s: Unicode.Scalar) -> Bool { s.value >= escapeBase + 0x80 && s.value <= escapeBase + 0xFF }

    /// The byte an escape stands for, or nil.
    public static func escapedByte(_ s: Unicode.Scalar) -> UInt8? { isEscape(s) ? UInt8(s.value - escapeBase) : nil }

    private static func escape(_ byte: UInt8) -> Unicode.Scalar { Unicode.Scalar(escapeBase + UInt32(byte))! }

    /// One well-formed UTF-8 sequence at `i` (no overlong forms, no surrogates), or nil.
    private static func decodeOne(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        let (length, initial, minimum): (Int, UInt32, UInt32)
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, initial, minimum) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, initial, minimum) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, initial, minimum) = (4, UInt32(lead & 0x07), 0x10000)
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        var value = initial
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
