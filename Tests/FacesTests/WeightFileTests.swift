import Foundation
import SFaceWeights
import TestSupport
import XCTest

@testable import Faces

/// A wrong or damaged weight file must fail loudly with the reason, never give a silently
/// wrong embedding.
final class WeightFileTests: XCTestCase {
    private func sfaceBytes() throws -> Data { try Data(contentsOf: BakedWeights.locate("sface").get()) }

    private func expectError(_ data: Data, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try SFace(weights: WeightFile(data: data)), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(text), "error '\(error)' should mention '\(text)'", file: file, line: line)
        }
    }

    func testBakedFilesCarryTheirSourceDigests() throws {
        let sface = try WeightFile(contentsOf: BakedWeights.locate("sface").get())
        XCTAssertEqual(sface.sourceDigest, "fb143eea07838aa532d1c95df5f69899974ea0140e1fba05e94204be13ed74ee")
        XCTAssertEqual(sface.modelName, "sface-2021dec")
        let yunet = try WeightFile(contentsOf: BakedWeights.locate("yunet").get())
        XCTAssertEqual(yunet.sourceDigest, "49f000ec501fef24739071fc7e68267d32209045b6822c0c72dce1da25726f10")
    }

    func testFlippedByteIsReportedAsCorrupt() throws {
        var d = try sfaceBytes()
        d[d.count / 2] ^= 0x01
        expectError(d, contains: "corrupt")
    }

    func testTruncatedFileIsRejected() throws {
        let d = try sfaceBytes()
        expectError(d.prefix(d.count - 1000), contains: "corrupt")
        expectError(d.prefix(20), contains: "truncated")
        expectError(Data(), contains: "not a glimt weight file")
    }

    func testWrongMagicAndVersionAreRejected() throws {
        var d = try sfaceBytes()
        expectError(Data("PK\u{3}\u{4}not weights at all".utf8), contains: "not a glimt weight file")
        d[8] = 9
        expectError(d, contains: "version 9")
    }

    func testDetectorWeightsAreNotAcceptedAsRecognizerWeights() throws {
        let yunet = try Data(contentsOf: BakedWeights.locate("yunet").get())
        expectError(yunet, contains: "not SFace")
    }

    func testMissingTensorAndWrongShapeAreNamed() throws {
        let original = try WeightFile(data: sfaceBytes())
        // Rebuild the file without one tensor, and with one tensor's shape changed.
        var w = WeightWriter(model: original.modelName)
        for name in original.tensorNames where name != "conv_7_relu_gamma" {
            let e = original.entry(name)!
            w.add(name, shape: name == "conv_3_conv2d_weight" ? [128, 64, 1] : e.shape, values: e.values)
        }
        XCTAssertThrowsError(try SFace(weights: WeightFile(data: w.data()))) { error in
            XCTAssertTrue("\(error)".contains("conv_3_conv2d_weight has shape [128, 64, 1], expected [128, 64, 1, 1]"), "\(error)")
        }
        var w2 = WeightWriter(model: original.modelName)
        for name in original.tensorNames where name != "conv_7_relu_gamma" {
            let e = original.entry(name)!
            w2.add(name, shape: e.shape, values: e.values)
        }
        XCTAssertThrowsError(try SFace(weights: WeightFile(data: w2.data()))) { error in
            XCTAssertTrue("\(error)".contains("missing tensor conv_7_relu_gamma"), "\(error)")
        }
    }

    /// The checksum is zlib's CRC-32 at every length, so the eight-bytes-a-step path and the
    /// byte-wise tail agree with the classic definition.
    func testCRC32IsZlibs() {
        XCTAssertEqual(Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) }, 0xCBF4_3926, "the standard check value")
        func bytewise(_ b: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for x in b {
                crc ^= UInt32(x)
                for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 1000, 4093] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertEqual(bytes.withUnsafeBytes { CRC32.checksum($0) }, bytewise(bytes), "\(length) bytes")
        }
    }
}

/// Writes float32 (kind 0) .glw files, for tests that need a deliberately wrong one.
struct WeightWriter {
    private var body = Data()
    private var count: UInt32 = 0
    let model: String

    init(model: String) { self.model = model }

    private static func u16(_ v: Int) -> Data { withUnsafeBytes(of: UInt16(v).littleEndian) { Data($0) } }
    private static func u32(_ v: Int) -> Data { withUnsafeBytes(of: UInt32(v).littleEndian) { Data($0) } }
    private static func str(_ s: String) -> Data { u16(s.utf8.count) + Data(s.utf8) }

    mutating func add(_ name: String, shape: [Int], values: [Float]) {
        body += Self.str(name) + Data([0, UInt8(shape.count)])
        for d in shape { body += Self.u32(d) }
        for v in values { body += withUnsafeBytes(of: v.bitPattern.littleEndian) { Data($0) } }
        count += 1
    }

    func data() -> Data {
        var d = Data("GLIMTWTS".utf8) + Self.u32(1) + Data(repeating: 0, count: 32) + Self.str(model) + Self.str("test") + Self.u32(Int(count)) + body
        d += Self.u32(Int(crc32(d)))
        return d
    }

    private func crc32(_ d: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in d {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
