import Foundation
import GlimtPure
import TestSupport
import XCTest

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

    /// Every still glimt writes (a day's sheet, a year's, a photo's faces, a reference's thumbnail,
    /// JPEG or PNG) carries its mark, and is recognised wherever it is found: refused in one line
    /// as a reference photo (`reference add`, `--ref`) and by `faces`, never taken for a photo.
    func testAStillGlimtWroteIsNeverTakenForAPhoto() throws {
        let judged = ["--library", scanned.path, "--no-refs"]
        let day = output("day.png"), year = output("year.jpg"), faces = output("faces.jpg")
        XCTAssertEqual(try glimt(["show", "2024-05-01", "--sheet", day, "-q"] + judged).status, 0)
        XCTAssertEqual(try glimt(["calendar", "--sheet", year, "-q"] + judged).status, 0)
        XCTAssertEqual(try glimt("faces", fixture("yunet/obama.png"), "--sheet", faces, "-q").status, 0)
        let added = try glimt("reference", "add", fixture("yunet/obama.png"), "--library", scanned.path, "-q")
        XCTAssertEqual(added.status, 0, added.err)
        let thumbnail = scanned.appendingPathComponent("references/reference-1.png").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: thumbnail))
        // A copy under a photo's name is still glimt's.
        let renamed = output("IMG_0001.JPG")
        try FileManager.default.copyItem(atPath: faces, toPath: renamed)
        let own = { (command: String, path: String) in
            "glimt-pure \(command): \(path): a picture made by glimt-pure \(Glimt.version) (a sheet or a thumbnail), not a photo; not used\n"
        }
        for still in [day, year, faces, thumbnail, renamed] {
            let reference = try glimt("reference", "add", still, "--library", scanned.path, "--face", "1", "-q")
            XCTAssertEqual([reference.status.description, reference.err], ["1", own("reference", still)], still)
            let found = try glimt("faces", still, "-q")
            XCTAssertEqual([found.status.description, found.err], ["1", own("faces", still)], still)
        }
        let film = try glimt(["film", library.appendingPathComponent("videos").path, "--ref", faces, "--out", output("f.mp4"), "-q"])
        XCTAssertEqual(film.status, 1, film.err)
        XCTAssertEqual(film.err, own("film", faces))
        let listed = try glimt("reference", "list", "--library", scanned.path)
        XCTAssertTrue(listed.out.contains("obama.png"), "the one real photo stays the only reference: \(listed.out)")
    }
}
