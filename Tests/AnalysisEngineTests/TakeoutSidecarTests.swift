import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import AnalysisEngine

/// Google Takeout's sidecars: found under each of Takeout's names, and ranked among the other
/// sources of a capture date.
final class TakeoutSidecarTests: XCTestCase {
    private func sidecar(_ folder: URL, _ name: String, taken: Int, title: String? = nil) throws {
        var json: [String: Any] = ["photoTakenTime": ["timestamp": String(taken), "formatted": "whenever"]]
        if let title { json["title"] = title }
        try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent(name))
    }

    func testEveryNamingSchemeIsFound() throws {
        let folder = temporaryFolder(self)
        let cases: [(video: String, sidecar: String, title: String?)] = [
            ("VID_1.mp4", "VID_1.mp4.json", nil),
            ("clip two.MOV", "clip two.MOV.supplemental-metadata.json", nil),
            ("noext3.mp4", "noext3.json", nil),
            ("party(1).mp4", "party.mp4(1).json", nil),
            ("beach(2).mp4", "beach.mp4.supplemental-metadata(2).json", nil),
            (
                "a very long file name from a phone export 0001.mp4", "a very long file name from a phone export 0001.mp4.supplemental-me.json",
                "a very long file name from a phone export 0001.mp4"
            ),
        ]
        for (i, c) in cases.enumerated() {
            let video = folder.appendingPathComponent(c.video)
            try Data([0]).write(to: video)
            try sidecar(folder, c.sidecar, taken: 1_714_730_400 + i, title: c.title)
            XCTAssertEqual(TakeoutSidecar.takenTime(of: video.path)?.timeIntervalSince1970, Double(1_714_730_400 + i), c.sidecar)
        }
        // A cut name whose title is another file's does not date this one.
        let other = folder.appendingPathComponent("a very long file name from a phone export 0002.mp4")
        try Data([0]).write(to: other)
        try sidecar(folder, "a very long file name from a phone export 0002.mp4.supplem.json", taken: 1, title: "someone else.mp4")
        XCTAssertNil(TakeoutSidecar.takenTime(of: other.path))
        // Broken or oversized sidecars are no date, never a failure.
        let broken = folder.appendingPathComponent("broken.mp4")
        try Data([0]).write(to: broken)
        try Data("{\"photoTakenTime\": {\"timestamp\": \"soon\"}".utf8).write(to: folder.appendingPathComponent("broken.mp4.json"))
        XCTAssertNil(TakeoutSidecar.takenTime(of: broken.path))
    }

    /// The sources as a container's tags give them.
    private func resolve(tags: [String: String], path: String, modified: Date?, timeZone: TimeZone, sidecar: Date?) -> CaptureDate? {
        CaptureDate.resolve(
            quickTime: tags["com.apple.quicktime.creationdate"], creationTime: tags["creation_time"], sidecar: sidecar,
            fileName: URL(fileURLWithPath: path).lastPathComponent, modified: modified, timeZone: timeZone)
    }

    func testTheSidecarRanksAfterTheFilesOwnDateAndBeforeItsName() {
        let sidecar = Date(timeIntervalSince1970: 1_714_730_400)  // 2024-05-03 10:00 UTC
        let utc = TimeZone(identifier: "UTC")!
        let own = resolve(
            tags: ["creation_time": "2023-01-02T03:04:05.000000Z"], path: "/x/VID_20220101_120000.mp4", modified: Date(),
            timeZone: utc, sidecar: sidecar)
        XCTAssertEqual(own?.source, .creationTime)
        let lost = resolve(
            tags: ["creation_time": "1970-01-01T00:00:00.000000Z"], path: "/x/VID_20220101_120000.mp4", modified: Date(),
            timeZone: utc, sidecar: sidecar)
        XCTAssertEqual(lost?.source, .takeoutSidecar, "a camera without a clock writes 1970: the sidecar knows better")
        XCTAssertEqual(lost?.day, "2024-05-03")
        XCTAssertEqual(
            resolve(tags: [:], path: "/x/clip.mp4", modified: Date(), timeZone: TimeZone(identifier: "Asia/Tokyo")!, sidecar: sidecar)?.time,
            "19:00:00", "UTC shown in the time zone asked for")
    }
}
