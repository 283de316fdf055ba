import Foundation
import Imaging
import MediaIO

/// Access to the committed fixtures (`Tests/Fixtures`, see its PROVENANCE.md), shared by every
/// test target.
public enum Fixtures {
    /// The repository this test was built from.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let root = repository.appendingPathComponent("Tests/Fixtures", isDirectory: true)

    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
    public static func path(_ path: String) -> String { url(path).path }

    /// A JSON fixture as `type`. A fixture that does not fit throws, failing only the test that
    /// reads it, with the file and key path in the message.
    public static func decode<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        let data = try Data(contentsOf: url(path))
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw FixtureError(file: path, error: error)
        }
    }

    public static func image(_ path: String) throws -> RGBImage {
        try ImageDecoder.decode(path: url(path).path)
    }

    public static func floats(_ path: String) throws -> [Float] {
        let d = try Data(contentsOf: url(path))
        return d.withUnsafeBytes { p in
            (0..<(d.count / 4)).map { Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// Cosine of two raw vectors (the network's outputs before normalisation), in double.
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "fixture vectors of different lengths")
        var dot = 0.0, na = 0.0, nb = 0.0
        for i in a.indices {
            dot += Double(a[i]) * Double(b[i]); na += Double(a[i]) * Double(a[i]); nb += Double(b[i]) * Double(b[i])
        }
        return na > 0 && nb > 0 ? Float(dot / (na.squareRoot() * nb.squareRoot())) : 0
    }
}

/// A JSON fixture that does not match its schema, said in one line: which file, where in it, what.
public struct FixtureError: Error, CustomStringConvertible {
    public let file: String
    public let error: DecodingError

    public var description: String {
        switch error {
        case .keyNotFound(let key, let context):
            "\(file): no key '\(key.stringValue)' at \(Self.path(context.codingPath))"
        case .valueNotFound(let type, let context):
            "\(file): null at \(Self.path(context.codingPath)), expected \(type)"
        case .typeMismatch(let type, let context):
            "\(file): \(Self.path(context.codingPath)) is not \(type) (\(context.debugDescription))"
        case .dataCorrupted(let context):
            "\(file): \(Self.path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            "\(file): \(error)"
        }
    }

    /// `photos[2].faces[0].box`, or `top level`.
    static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "top level" }
        return keys.enumerated().map { i, key in
            if let index = key.intValue { "[\(index)]" } else { i == 0 ? key.stringValue : ".\(key.stringValue)" }
        }.joined()
    }
}
