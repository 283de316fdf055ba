import Film
import Imaging
import XCTest

/// The child's age in the film's captions: calendar months, month ends and leap days, and no
/// age before the birth.
final class AgeTests: XCTestCase {
    private func age(_ born: String, _ day: String) -> String? { Age(born: born, on: day)?.text }

    func testAcrossABirthday() {
        XCTAssertEqual(age("2022-03-14", "2024-03-13"), "1 year 11 months", "the day before the second birthday")
        XCTAssertEqual(age("2022-03-14", "2024-03-14"), "2 years", "the birthday")
        XCTAssertEqual(age("2022-03-14", "2024-03-15"), "2 years", "the day after")
        XCTAssertEqual(age("2022-03-14", "2024-06-14"), "2 years 3 months")
        XCTAssertEqual(age("2022-03-14", "2023-04-14"), "1 year 1 month")
        XCTAssertEqual(age("2022-03-14", "2023-03-14"), "1 year")
        XCTAssertEqual(age("2022-03-14", "2023-03-13"), "11 months")
    }

    func testTheFirstMonthIsInDays() {
        XCTAssertNil(age("2022-03-14", "2022-03-13"), "the day before the birth has no age")
        XCTAssertEqual(age("2022-03-14", "2022-03-14"), "born today")
        XCTAssertEqual(age("2022-03-14", "2022-03-15"), "1 day old")
        XCTAssertEqual(age("2022-03-14", "2022-03-25"), "11 days old")
        XCTAssertEqual(age("2022-03-14", "2022-04-13"), "30 days old")
        XCTAssertEqual(age("2022-03-14", "2022-04-14"), "1 month")
        XCTAssertEqual(age("2023-12-20", "2024-01-19"), "30 days old", "across a new year")
        XCTAssertEqual(age("2024-02-01", "2024-02-29"), "28 days old", "a leap February")
    }

    /// A month is complete on the birthday's day of the month, or on the last day of a shorter month.
    func testMonthEndBirthdays() {
        XCTAssertEqual(age("2023-01-31", "2023-02-27"), "27 days old")
        XCTAssertEqual(age("2023-01-31", "2023-02-28"), "1 month", "a common February's last day")
        XCTAssertEqual(age("2024-01-31", "2024-02-28"), "28 days old", "a leap February has its 29th")
        XCTAssertEqual(age("2024-01-31", "2024-02-29"), "1 month")
        XCTAssertEqual(age("2023-01-31", "2023-03-30"), "1 month")
        XCTAssertEqual(age("2023-01-31", "2023-03-31"), "2 months")
        XCTAssertEqual(age("2023-01-31", "2023-04-30"), "3 months", "April has no 31st")
        XCTAssertEqual(age("2023-08-31", "2023-09-30"), "1 month")
        XCTAssertEqual(age("2023-08-31", "2023-09-29"), "29 days old")
    }

    func testALeapDayBirthday() {
        XCTAssertEqual(age("2020-02-29", "2021-02-27"), "11 months")
        XCTAssertEqual(age("2020-02-29", "2021-02-28"), "1 year", "a common year: on the last day of February")
        XCTAssertEqual(age("2020-02-29", "2021-03-01"), "1 year")
        XCTAssertEqual(age("2020-02-29", "2024-02-28"), "3 years 11 months", "a leap year: not before the 29th")
        XCTAssertEqual(age("2020-02-29", "2024-02-29"), "4 years")
        XCTAssertEqual(age("2020-02-29", "2020-03-29"), "1 month")
        XCTAssertEqual(age("2020-02-29", "2020-03-28"), "28 days old")
    }

    func testNoAgeBeforeTheBirthOrFromWhatIsNoDay() {
        XCTAssertNil(age("2022-03-14", "2021-12-31"))
        XCTAssertNil(age("2023-02-29", "2024-01-01"))
        XCTAssertNil(age("2022-03-14", "2022-3-14"))
        XCTAssertNil(age("2022-03-14", "today"))
    }

    /// The caption: the date and the age, upper-case as the font draws it; before the birth the
    /// date alone, or nothing for the age alone.
    func testTheCaptionSaysTheAgeThatDay() {
        let segment = FilmSegment(day: "2024-05-04", video: "a.mp4", start: 0, crop: Box(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(Caption.text(.dateAndAge, segment: segment, born: "2022-02-04"), "SAT 4 MAY 2024  2 YEARS 3 MONTHS")
        XCTAssertEqual(Caption.text(.age, segment: segment, born: "2024-04-23"), "11 DAYS OLD")
        XCTAssertEqual(Caption.text(.age, segment: segment, born: "2024-05-04"), "BORN TODAY")
        XCTAssertEqual(Caption.text(.dateAndAge, segment: segment, born: "2024-05-05"), "SAT 4 MAY 2024")
        XCTAssertNil(Caption.text(.age, segment: segment, born: "2024-05-05"))
        XCTAssertEqual(Caption.text(.date, segment: segment, born: "2022-02-04"), "SAT 4 MAY 2024")
    }

    /// A caption too wide for a portrait film's width takes two lines, and none of it is cut off
    /// at the frame's right edge.
    func testAWideCaptionStaysInsideTheFrame() {
        var frame = RGBImage(width: 1080, height: 1920, fill: (0, 0, 0))
        let text = "WED 13 SEP 2024  12 YEARS 11 MONTHS"
        XCTAssertGreaterThan(BitmapFont.width(text, scale: 1080 / 160), 1080, "the caption is wider than the frame on one line")
        Caption.draw(text, on: &frame)
        func inked(_ x: Range<Int>, _ y: Range<Int>) -> Bool {
            y.contains { yy in x.contains { xx in frame.pixels[(yy * 1080 + xx) * 3] > 200 } }
        }
        XCTAssertFalse(inked(1080 - 48..<1080, 0..<1920), "no text in the right margin")
        let rows = (0..<1920).filter { inked(0..<1080, $0..<$0 + 1) }
        XCTAssertEqual(rows.count, 2 * 7 * 6, "two lines of 7 rows at scale 6")
    }
}
