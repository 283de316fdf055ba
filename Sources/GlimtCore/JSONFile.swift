import Foundation

/// Files a person can edit (the reference list, a saved picks file, the review page's choices)
/// are read through here: any problem, from a missing file to a wrong number deep inside, becomes
/// one line that names the file and the place in it, never a crash. A file saved on another
/// system (UTF-16, a byte order mark, CRLF) reads as its text says, and a key given twice, which
/// the decoder would take silently, is refused (see `JSONText`).
public enum JSONFile {
    /// Reference lists and picks files are kilobytes; past this a file is not one.
    public static let maxBytes = 64 << 20

    /// `what` says what the file should be ("a reference list"), for the reason.
    public static func read<T: Decodable>(_ type: T.Type, from path: String, what: String) throws -> T {
        let bytes: [UInt8]
        do { bytes = try FileName.read(path, limit: maxBytes) } catch let e as GlimtError {
            throw GlimtError("cannot read \(what) (\(e.reason))", path: path)
        }
        let text: [UInt8]
        do { text = try JSONText.utf8(bytes) } catch let e as GlimtError { throw e.at(path) }
        if let twice = JSONText.duplicateKey(in: text) { throw GlimtError("\(twice); a key may be given once", path: path) }
        let data = Data(text)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let e as DecodingError {
            throw GlimtError("not \(what): \(describe(e))", path: path)
        } catch let e as GlimtError {
            throw e.at(path)
        } catch {
            throw GlimtError("not \(what): \(error)", path: path)
        }
    }

    /// Pretty, key-sorted JSON, written atomically.
    public static func write<T: Encodable>(_ value: T, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write([UInt8](try encoder.encode(value)), to: path)
    }

    /// One entry of a list read leniently: a broken entry is kept as its problem, so the
    /// entries around it still count.
    public struct Entry<T: Decodable>: Decodable {
        public let value: Result<T, GlimtError>

        public init(from decoder: Decoder) throws {
            do {
                value = .success(try T(from: decoder))
            } catch let e as DecodingError {
                value = .failure(GlimtError(describe(e)))
            } catch let e as GlimtError {
                value = .failure(e)
            }
        }
    }

    /// `references[1].embedding: the embedding has 127 numbers; ...`
    static func describe(_ e: DecodingError) -> String {
        func place(_ path: [CodingKey]) -> String {
            var s = ""
            for key in path {
                if let i = key.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + key.stringValue }
            }
            return s.isEmpty ? "the top level" : s
        }
        switch e {
        case .dataCorrupted(let c):
            // At the top level this is the parser's own complaint, long and sometimes multi-line.
            return c.codingPath.isEmpty ? "it is not valid JSON" : "\(place(c.codingPath)): \(c.debugDescription)"
        case .keyNotFound(let key, let c):
            return "\(place(c.codingPath + [key])) is missing"
        case .typeMismatch(let type, let c), .valueNotFound(let type, let c):
            return "\(place(c.codingPath)) should be \(describe(type))"
        @unknown default:
            return "\(e)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "text"
        case is Int.Type, is Float.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }

    /// The cause of a failed file operation, in a few words ("no such file").
    public static func reason(_ error: Error) -> String {
        let e = error as NSError
        if let u = e.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(u.code))) }
        switch CocoaError.Code(rawValue: e.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default: return e.localizedDescription
        }
    }
}
