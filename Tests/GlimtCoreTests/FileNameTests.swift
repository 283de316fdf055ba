import Foundation
import TestSupport
import XCTest

@testable import GlimtCore

/// Names as bytes: every byte string survives the trip through a Swift string and back, UTF-8
/// names are left as they are, and printing shows the stray bytes.
final class FileNameTests: XCTestCase {
    func testEveryByteStringRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 1...24, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) }
            XCTAssertEqual(FileName.bytes(FileName.string(fromBytes: bytes)), bytes)
        }
        for name in ["plain.mp4", "Ünïcödé 日本.mov", "emoji 🎂.mp4"] {
            XCTAssertEqual(FileName.string(fromBytes: Array(name.utf8)), name, "UTF-8 is left as it is")
        }
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp4".utf8)
        XCTAssertEqual(ShownPath.escaped(FileName.string(fromBytes: latin1)), "caf\\xe9.mp4")
        // An overlong encoding and a lone continuation byte are bytes, not characters.
        XCTAssertEqual(ShownPath.bytesEscaped(FileName.string(fromBytes: [0xC0, 0xAF, 0x80])), "\\xc0\\xaf\\x80")
    }

    func testTheSystemSeesTheBytes() throws {
        let folder = temporaryFolder(self)
        let name = FileName.string(fromBytes: Array(folder.path.utf8) + Array("/b".utf8) + [0xFF, 0xFE] + Array(".json".utf8))
        try AtomicFile.write(Array("{}".utf8), to: name)
        XCTAssertEqual(try FileName.read(name, limit: 10), Array("{}".utf8))
        XCTAssertEqual(try FileStatus(name).kind, .file)
        let listed = FileWalker.find([folder.path]) { _ in true }.files
        XCTAssertEqual(listed, [name], "readdir's bytes give back the same name")
    }
}
