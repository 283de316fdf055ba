import TestSupport
import XCTest

@testable import GlimtCore

/// A video's content key: the same bytes give the same key wherever the file is; files of every
/// size up to and past two spans (the whole file, then its two ends) are read within bounds.
final class ContentKeyTests: XCTestCase {
    private lazy var folder = URL(fileURLWithPath: temporaryFolder(self).path)

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) } }

    /// Sizes around one and two spans: a file between them once overran the one-span buffer.
    func testEverySizeIsHashedAndAMovedFileKeepsItsKey() throws {
        let span = ContentKey.span
        var keys = Set<String>()
        for size in [0, 1, span - 1, span, span + 1, span * 3 / 2, 2 * span - 1, 2 * span, 2 * span + 1, 3 * span] {
            let content = bytes(size)
            let key = try ContentKey.of(path: file("a-\(size).mp4", content))
            XCTAssertEqual(key.count, 32)
            XCTAssertEqual(try ContentKey.of(path: file("moved-\(size).mov", content)), key, "size \(size)")
            keys.insert(key)
        }
        XCTAssertEqual(keys.count, 10, "each size its own key")
    }

    /// Up to two spans every byte counts; past them, the two ends (and the size) do.
    func testWhatChangesTheKey() throws {
        let span = ContentKey.span
        var small = bytes(span * 3 / 2)
        let before = try ContentKey.of(path: file("small.mp4", small))
        small[span + 10] ^= 1
        XCTAssertNotEqual(try ContentKey.of(path: file("small-edited.mp4", small)), before)

        var large = bytes(3 * span)
        let key = try ContentKey.of(path: file("large.mp4", large))
        large[span + 10] ^= 1  // the middle: not read
        XCTAssertEqual(try ContentKey.of(path: file("large-middle.mp4", large)), key)
        large[3 * span - 1] ^= 1  // the last span: read
        XCTAssertNotEqual(try ContentKey.of(path: file("large-end.mp4", large)), key)
    }

    func testAFolderIsNotAVideo() {
        XCTAssertThrowsError(try ContentKey.of(path: folder.path)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }
}
