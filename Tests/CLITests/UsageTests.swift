import Foundation
import XCTest

/// Help, version and usage mistakes, as a user meets them first.
final class UsageTests: CLITestCase {
    func testVersionPrints() throws {
        let version = try glimt("--version")
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.out.hasPrefix("glimt-pure "))
    }

    func testUsageMistakesExitWith64AndSayWhatToDo() throws {
        let unknown = try glimt("fly")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("unknown command 'fly'"))
        let badOption = try glimt("faces", "--bogus", "x.jpg")
        XCTAssertEqual(badOption.status, 64)
        XCTAssertTrue(badOption.err.contains("unknown option --bogus"))
        XCTAssertEqual(try glimt("embed").status, 64)
        XCTAssertEqual(try glimt("help", "fly").status, 64)
    }
}
