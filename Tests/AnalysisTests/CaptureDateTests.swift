import Foundation
import XCTest

@testable import Analysis

final class CaptureDateTests: XCTestCase {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!

    /// The sources as a container's tags give them.
    private func resolve(tags: [String: String], path: String, modified: Date?, timeZone: TimeZone) -> CaptureDate? {
        CaptureDate.resolve(
            quickTime: tags["com.apple.quicktime.creationdate"], creationTime: tags["creation_time"], sidecar: nil,
            fileName: URL(fileURLWithPath: path).lastPathComponent, modified: modified, timeZone: timeZone)
    }

    func testQuickTimeDateKeepsTheCamerasLocalDay() {
        // 23:30 in Tokyo is 14:30 UTC the same day; a film made in New York still files it under
        // the Tokyo day.
        let d = resolve(
            tags: ["com.apple.quicktime.creationdate": "2024-05-17T23:30:00+0900", "creation_time": "2024-05-17T14:30:00.000000Z"],
            path: "/x/IMG_0001.MOV", modified: nil, timeZone: newYork)!
        XCTAssertEqual(d.day, "2024-05-17")
        XCTAssertEqual(d.source, .quicktimeCreationDate)
        XCTAssertEqual(d.instant?.timeIntervalSince1970, 1_715_956_200)
    }

    /// A photo's EXIF time is the camera's clock, its day as written whatever the zone read in; a
    /// clock never set (zeros) is no date, passed over without a line; a month 13 is said.
    func testEXIFDateKeepsTheCamerasDayAndZerosAreNoDate() {
        func read(_ exif: String) -> CaptureDate.Reading {
            CaptureDate.read(
                exif: exif, quickTime: nil, creationTime: nil, sidecar: nil, fileName: "IMG_20240601_120000.jpg", modified: nil, timeZone: newYork)
        }
        let late = read("2024-05-17T23:30:00+09:00")
        XCTAssertEqual(late.date?.day, "2024-05-17")
        XCTAssertEqual(late.date?.source, .exif)
        XCTAssertEqual(late.date?.instant?.timeIntervalSince1970, 1_715_956_200)
        XCTAssertEqual(read("2024-05-17T23:30:00").date?.day, "2024-05-17", "no offset: the day as written")
        XCTAssertNil(read("2024-05-17T23:30:00").date?.instant)
        let unset = read("0000-00-00T00:00:00")
        XCTAssertEqual(unset.date?.source, .fileName)
        XCTAssertEqual(unset.notes, [])
        let impossible = read("2024-13-01T10:00:00")
        XCTAssertEqual(impossible.date?.source, .fileName)
        XCTAssertEqual(impossible.notes, ["its EXIF date '2024-13-01T10:00:00' is not a real date; dated by its file name instead"])
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

    /// A date that cannot be, in any source, is passed over for the next source, with one line
    /// saying so; so is one after tomorrow. 2024-06-01 is "now" here.
    func testImpossibleAndFutureDatesFallThroughWithALine() {
        let now = Date(timeIntervalSince1970: 1_717_243_200)
        func read(
            quickTime: String? = nil, creationTime: String? = nil, sidecar: Date? = nil, name: String = "clip.mp4",
            modified: Date? = Date(timeIntervalSince1970: 1_700_000_000)
        ) -> CaptureDate.Reading {
            CaptureDate.read(
                quickTime: quickTime, creationTime: creationTime, sidecar: sidecar, fileName: name, modified: modified,
                timeZone: berlin, now: now)
        }
        let impossible = [
            "2024-13-45T10:00:00+0200", "2024-02-30T10:00:00+0200", "2023-02-29T10:00:00+0200", "2024-00-10T10:00:00+0200",
            "2024-05-00T10:00:00+0200", "0000-05-04T10:00:00+0200", "2024-05-04T24:00:00+0200", "2024-05-04T23:60:00+0200",
            "2024-05-04T23:59:60+0200", "2024-05-04T10:00:00+0200junk", "2024-05-04T10:00:00 and more", "2024-05-04T10:00:00+2500",
            "2024-05-04T10:00:00.Z", "2024-05-04",
        ]
        for value in impossible {
            let r = read(quickTime: value, creationTime: "2024-05-04T08:00:00.000000Z")
            XCTAssertEqual(r.date?.source, .creationTime, value)
            XCTAssertEqual(r.date?.day, "2024-05-04", value)
            XCTAssertEqual(r.notes, ["its creation date '\(value)' is not a real date; dated by its creation time instead"], value)
            let utc = read(creationTime: value, name: "VID_20240504_100000.mp4")
            XCTAssertEqual(utc.date?.source, .fileName, value)
            XCTAssertEqual(utc.notes, ["its creation time '\(value)' is not a real date; dated by its file name instead"], value)
        }
        // Both passed over, each named; the modification time is the last resort.
        let both = read(quickTime: "2024-13-45T10:00:00+0200", creationTime: "2099-01-01T00:00:00.000000Z", name: "VID_20240230_100000.mp4")
        XCTAssertEqual(both.date?.source, .modificationTime)
        XCTAssertEqual(
            both.notes,
            [
                "its creation date '2024-13-45T10:00:00+0200' is not a real date; dated by its file's modification time instead",
                "its creation time '2099-01-01T00:00:00.000000Z' is in the future; dated by its file's modification time instead",
                "the date in its name '20240230_100000' is not a real date; dated by its file's modification time instead",
            ])
        // The future is after tomorrow in the zone furthest ahead (UTC+14, where it is already
        // 2024-06-02): a clock a day fast is not taken for a wrong one.
        XCTAssertEqual(read(quickTime: "2024-06-03T23:00:00+1400").notes, [])
        XCTAssertEqual(
            read(quickTime: "2024-06-04T01:00:00+1400").notes.first?.hasSuffix("is in the future; dated by its file's modification time instead"),
            true)
        XCTAssertEqual(
            read(name: "PXL_20990101_120000000.mp4").notes,
            ["the date in its name '20990101_120000' is in the future; dated by its file's modification time instead"])
        XCTAssertEqual(
            read(sidecar: Date(timeIntervalSince1970: 4_102_444_800)).notes,
            ["its Google Takeout sidecar's time '2100-01-01T00:00:00Z' is in the future; dated by its file's modification time instead"])
        // What is read stays read: offsets with and without a colon, fractions, a space for the T.
        XCTAssertEqual(read(quickTime: "2024-05-04T23:30:00.123+09:00").date?.instant?.timeIntervalSince1970, 1_714_833_000.0)
        XCTAssertEqual(read(creationTime: "2024-05-04 14:30:00").date?.day, "2024-05-04")
        XCTAssertEqual(read(creationTime: "2024-05-04T22:30:00-02").date?.day, "2024-05-05", "an offset given is honoured")
        XCTAssertEqual(read(creationTime: "1970-01-01T00:00:00.000000Z").notes, [], "a camera without a clock wrote no date at all")
        // A value full of control characters stays one line.
        XCTAssertEqual(
            read(quickTime: "2024-05-04\u{1b}[2J\nT10").notes,
            ["its creation date '2024-05-04\\x1b[2J\\nT10' is not a real date; dated by its file's modification time instead"])
    }
}
