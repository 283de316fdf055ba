import Foundation
import XCTest
@testable import Analysis

final class CaptureDateTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!

    /// The sources as a container's tags give them.
    private func resolve(tags: [String: String], path: String, modified: Date?, timeZone: TimeZone) -> CaptureDate? {
        CaptureDate.resolve(quickTime: tags["com.apple.quicktime.creationdate"], creationTime: tags["creation_time"], sidecar: nil,
                            fileName: URL(fileURLWithPath: path).lastPathComponent, modified: modified, timeZone: timeZone)
    }

    func testQuickTimeDateKeepsTheCamerasLocalDay() {
        // 23:30 in Tokyo is 14:30 UTC the same day; a film made in New York still files it under
        // the Tokyo day.
        let d = resolve(tags: ["com.apple.quicktime.creationdate": "2024-05-17T23:30:00+0900", "creation_time": "2024-05-17T14:30:00.000000Z"],
                                    path: "/x/IMG_0001.MOV", modified: nil, timeZone: newYork)!
        XCTAssertEqual(d.day, "2024-05-17")
        XCTAssertEqual(d.source, .quicktimeCreationDate)
        XCTAssertEqual(d.instant?.timeIntervalSince1970, 1_715_956_200)
    }

    func testUTCCreationTimeIsConvertedAroundMidnight() {
        let tags = ["creation_time": "2024-05-17T22:30:00.000000Z"]
        XCTAssertEqual(resolve(tags: tags, path: "/x/a.mp4", modified: nil, timeZone: berlin)!.day, "2024-05-18")
        XCTAssertEqual(resolve(tags: tags, path: "/x/a.mp4", modified: nil, timeZone: newYork)!.day, "2024-05-17")
        XCTAssertEqual(resolve(tags: tags, path: "/x/a.mp4", modified: nil, timeZone: berlin)!.source, .creationTime)
    }

    func testFileNamePatterns() {
        XCTAssertEqual(resolve(tags: [:], path: "/v/VID_20230102_235959.mp4", modified: nil, timeZone: berlin)!.day, "2023-01-02")
        XCTAssertEqual(resolve(tags: [:], path: "/v/20230102_080000.mp4", modified: nil, timeZone: berlin)!.time, "08:00:00")
        // Pixel names are UTC: 23:30 UTC is already the next day in Berlin.
        XCTAssertEqual(resolve(tags: [:], path: "/v/PXL_20230102_233000123.mp4", modified: nil, timeZone: berlin)!.day, "2023-01-03")
        XCTAssertEqual(resolve(tags: [:], path: "/v/VID-20230102-WA0007.mp4", modified: nil, timeZone: berlin)!.day, "2023-01-02")
        XCTAssertEqual(resolve(tags: [:], path: "/v/VID_20231340_000000.mp4", modified: nil, timeZone: berlin), nil, "an impossible date is no date")
    }

    func testFallsBackToModificationTimeAndIgnoresEpochDates() {
        let m = Date(timeIntervalSince1970: 1_700_000_000)
        let d = resolve(tags: ["creation_time": "1970-01-01T00:00:00.000000Z"], path: "/v/clip.mp4", modified: m, timeZone: berlin)!
        XCTAssertEqual(d.source, .modificationTime)
        XCTAssertEqual(d.day, "2023-11-14")
    }
}
