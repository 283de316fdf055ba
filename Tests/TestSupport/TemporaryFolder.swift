import Foundation
import XCTest

/// A fresh folder under the system temporary folder, removed when `test` ends.
public func temporaryFolder(_ test: XCTestCase) -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-test-\(UUID().uuidString)", isDirectory: true)
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
}
