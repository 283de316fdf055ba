import Foundation
import XCTest
@testable import Imaging
@testable import MediaIO

/// Access to the committed fixtures (Tests/GlimtPureTests/Fixtures, see its PROVENANCE.md).
enum Fixtures {
    static let root: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url(path)))
    }

    static func image(_ path: String) throws -> RGBImage {
        try ImageDecoder.decode(path: url(path).path)
    }

    static func floats(_ path: String) throws -> [Float] {
        let d = try Data(contentsOf: url(path))
        return d.withUnsafeBytes { p in (0..<(d.count / 4)).map { Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) } }
    }
}

extension Array where Element == Any {
    var floats: [Float] { map { Float(($0 as! NSNumber).doubleValue) } }
}

func point(_ a: Any) -> Point {
    let v = (a as! [Any]).floats
    return Point(v[0], v[1])
}

func box(_ a: Any) -> Box {
    let v = (a as! [Any]).floats
    return Box(x: v[0], y: v[1], width: v[2], height: v[3])
}

/// A temporary directory removed at the end of the test.
func temporaryDirectory(_ test: XCTestCase) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir
}

extension Fixtures {
    /// Cosine of two raw vectors (the network's outputs before normalisation), in double.
    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "fixture vectors of different lengths")
        var dot = 0.0, na = 0.0, nb = 0.0
        for i in a.indices {
            dot += Double(a[i]) * Double(b[i]); na += Double(a[i]) * Double(a[i]); nb += Double(b[i]) * Double(b[i])
        }
        return na > 0 && nb > 0 ? Float(dot / (na.squareRoot() * nb.squareRoot())) : 0
    }
}
