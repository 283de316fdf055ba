import Foundation
import XCTest
import TestSupport

/// `show` and `calendar` as a person runs them, on the generated fixture days (Obama and Biden on
/// 05-01, Biden on 05-02, Obama on 05-03), scanned.
final class SheetCommandTests: CLITestCase {
    private var scanned: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let videos = library.appendingPathComponent("videos")
        try GeneratedClips.write(to: videos.path)
        scanned = library.appendingPathComponent("scanned")
        let scan = try glimt("scan", videos.path, "--library", scanned.path, "--timezone", "UTC", "-q")
        XCTAssertEqual(scan.status, 0, scan.err)
    }

    private func output(_ name: String) -> String { library.appendingPathComponent(name).path }

    /// The commands as a person runs them: a line for what was written, one for what went wrong.
    func testTheCommands() throws {
        let judged = ["--library", scanned.path, "--no-refs"]
        let day = output("day.png")
        let show = try glimt(["show", "2024-05-01", "--sheet", day] + judged)
        XCTAssertEqual(show.status, 0, show.err)
        XCTAssertTrue(show.out.hasPrefix("wrote \(day): 2024-05-01, 2 videos: picked VID_20240501_120000_"), show.out)
        let again = try glimt(["show", "2024-05-01", "--sheet", day] + judged)
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.err, "glimt-pure show: \(day): already exists; add -y (--overwrite) to replace it\n")
        let none = try glimt(["show", "2024-05-09", "--sheet", output("none.png")] + judged)
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.err, "glimt-pure show: the library has no video of 2024-05-09 (see: glimt-pure days)\n")
        XCTAssertEqual(try glimt(["show", "2024-05-01"] + judged).status, 64, "--sheet is required")
        let calendar = try glimt(["calendar", "--sheet", output("year.jpg"), "-q"] + judged)
        XCTAssertEqual(calendar.status, 0, calendar.err)
        XCTAssertTrue(calendar.out.hasPrefix("wrote \(output("year.jpg")): 2024, 3 days picked"), calendar.out)
    }
}
