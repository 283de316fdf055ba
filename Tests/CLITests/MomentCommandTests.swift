import Foundation
import GlimtPure
import TestSupport
import XCTest

/// The family's second is one shot, and its caption names who that shot shows
/// (Fixtures/moment/two_people.mp4: Obama until 1.3 s, then Biden).
final class MomentCommandTests: CLITestCase {
    func testEveryonesSecondIsOneShotAndItsCaptionNamesOnlyWhoIsThere() throws {
        let store = library.appendingPathComponent("store").path, videos = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("moment/two_people.mp4"), toPath: videos.appendingPathComponent("two_people.mp4").path)
        for (photo, name) in [("yunet/obama.png", "Barack"), ("yunet/biden.png", "Joe")] {
            XCTAssertEqual(try glimt("reference", "add", fixture(photo), "--person", name, "--library", store).status, 0)
        }
        XCTAssertEqual(try glimt("scan", videos.path, "--timezone", "UTC", "-q", "--library", store).status, 0)
        let days = try glimt("days", "--everyone", "--json", "--library", store)
        XCTAssertEqual(days.status, 0, days.err)
        let pick = try XCTUnwrap(try JSONDecoder().decode([DayReport].self, from: Data(days.out.utf8)).first?.pick)
        XCTAssertTrue(pick.start + 1 <= 1.3 + 0.05 || pick.start >= 1.3 - 0.05, "the second at \(pick.start) s crosses the cut at 1.3 s")
        XCTAssertEqual(pick.people, pick.start < 1.3 ? ["Barack"] : ["Joe"], "the caption names who the shot shows")
        XCTAssertTrue(pick.passedOver?.contains("scene cut at 1.3 s") == true, pick.passedOver ?? "nothing passed over")
        let text = try glimt("days", "--everyone", "--library", store)
        XCTAssertTrue(text.out.contains("    passed over: the second at 0.8 s scores higher: scene cut at 1.3 s"), text.out)
    }
}
