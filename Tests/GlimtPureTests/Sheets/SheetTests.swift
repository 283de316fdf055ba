import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import GlimtPure
@testable import Imaging
@testable import Library

/// The sheets as a person looks at them: a day's videos side by side with the pick marked, and a
/// year of days with their frames; read back from the written files, pixel by pixel.
final class SheetTests: XCTestCase {
    private var root: URL!
    private var library: URL!
    private var clips: [String] = []

    /// The fixture days (Obama and Biden on 05-01, Biden on 05-02, Obama on 05-03), scanned.
    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-sheets-\(UUID().uuidString)")
        library = root.appendingPathComponent("library")
        clips = try GeneratedClips.write(to: root.appendingPathComponent("videos").path)
        _ = try LibraryScan(library: library, options: options(), workers: 2).run([root.appendingPathComponent("videos").path])
    }

    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    private func options(withoutPerson: DayPick.WithoutPerson = .skip) -> AnalysisOptions {
        var o = AnalysisOptions()
        o.timeZone = TimeZone(identifier: "UTC")!
        o.rules.withoutPerson = withoutPerson
        return o
    }

    /// Judged with Obama as the person.
    private func days(withoutPerson: DayPick.WithoutPerson = .skip) throws -> LibraryDays {
        let obama = try References.make(
            photo: Fixtures.url("yunet/obama4.png").path, faceNumber: nil, models: try FaceModels.load(), id: 1,
            sheetFolder: root.appendingPathComponent("sheets")
        ).0
        return try LibraryDays(library: library, rules: options(withoutPerson: withoutPerson).rules, lookFor: .only([obama]))
    }

    private func output(_ name: String) -> String { root.appendingPathComponent(name).path }

    private func pixel(_ image: RGBImage, _ at: (x: Int, y: Int)) -> RGB {
        let p = image.pixel(at.x, at.y)
        return RGB(p.r, p.g, p.b)
    }

    func testTheDaySheetHasATilePerVideoAndMarksThePick() throws {
        let days = try days()
        let out = output("day.png")
        let outcome = try DaySheet(output: out, overwrite: false).write(day: "2024-05-01", days: days)
        XCTAssertEqual(outcome.report.status, .picked)
        XCTAssertEqual(outcome.report.candidates.count, 2)
        XCTAssertTrue(outcome.unreadable.isEmpty, "\(outcome.unreadable)")
        let sheet = try StillImage.read(out)
        // The 320x240 clips fill their tiles' width: room for the 240-pixel-high pictures.
        let layout = DaySheet.Layout(report: outcome.report, tiles: 2, pictureHeight: 240)
        XCTAssertEqual([sheet.width, sheet.height], [layout.width, layout.height])
        XCTAssertEqual(layout.grid.columns, 2, "one tile per video, side by side")
        let picked = try XCTUnwrap(outcome.report.candidates.firstIndex(where: \.picked))
        XCTAssertTrue(outcome.report.candidates[picked].video.hasSuffix("_0.mp4"), "Obama's clip")
        for i in 0..<2 {
            let at = layout.picture(i, width: 320, height: 240)
            let border = [(at.x - 3, at.y + 120), (at.x + 160, at.y - 3), (at.x + 323, at.y + 200), (at.x + 100, at.y + 243)].map { pixel(sheet, $0) }
            if i == picked {
                XCTAssertEqual(border, Array(repeating: SheetStyle.picked, count: 4), "the pick is framed in green")
            } else {
                XCTAssertEqual(border, Array(repeating: SheetStyle.background, count: 4), "the other video is not framed")
            }
            // Each tile holds its video's frame: the clip's blue backdrop (dimmed outside the
            // film's crop on the pick), not the sheet's grey.
            let backdrop = pixel(sheet, (at.x + 310, at.y + 230))
            XCTAssertGreaterThan(Int(backdrop.b), 50, "tile \(i) shows its video (\(backdrop))")
        }

        // Pinned to Biden's clip, Obama's excluded: a blue frame, and a red one on a dimmed picture.
        let choices = try LibraryChoices(library: library, person: 1)
        try choices.pin(day: "2024-05-01", file: clips[1], start: 0.3)
        try choices.set(clips[0], excluded: true)
        XCTAssertThrowsError(try DaySheet(output: out, overwrite: false)) {
            XCTAssertTrue("\($0)".hasSuffix("day.png: already exists; add -y (--overwrite) to replace it"), "\($0)")
        }
        let again = try DaySheet(output: out, overwrite: true).write(day: "2024-05-01", days: days)
        XCTAssertEqual(again.report.status, .pinned)
        let pinnedSheet = try StillImage.read(out)
        let pinnedLayout = DaySheet.Layout(report: again.report, tiles: 2, pictureHeight: 240)
        XCTAssertEqual([pinnedSheet.width, pinnedSheet.height], [pinnedLayout.width, pinnedLayout.height])
        for (i, candidate) in again.report.candidates.enumerated() {
            let at = pinnedLayout.picture(i, width: 320, height: 240)
            let edge = pixel(pinnedSheet, (at.x - 5, at.y + 120))
            if candidate.excluded {
                XCTAssertEqual(edge, SheetStyle.excluded, "the excluded video is framed in red")
                XCTAssertLessThan(Int(pixel(pinnedSheet, (at.x + 310, at.y + 230)).b), 60, "and dimmed")
            } else {
                XCTAssertEqual(edge, SheetStyle.pinned, "the pinned video is framed in blue")
            }
        }

        // JPEG by the name; the size is the same.
        let jpeg = output("day.jpg")
        _ = try DaySheet(output: jpeg, overwrite: false).write(day: "2024-05-01", days: days)
        let decoded = try StillImage.read(jpeg)
        XCTAssertEqual([decoded.width, decoded.height], [pinnedLayout.width, pinnedLayout.height])
    }

    func testTheCalendarShowsPickedDaysAndLeavesTheOthersEmpty() throws {
        try LibraryChoices(library: library, person: 1).set("2024-05-03", excluded: true)
        let out = output("year.png")
        let outcome = try CalendarSheet(output: out, overwrite: false).write(year: nil, days: try days(withoutPerson: .include))
        XCTAssertEqual(outcome.year, 2024, "the year of the latest day")
        XCTAssertEqual(outcome.days.count, 366)
        XCTAssertEqual(outcome.days.filter(\.inFilm).map(\.day), ["2024-05-01", "2024-05-02"])
        let sheet = try StillImage.read(out)
        let layout = CalendarSheet.Layout(year: 2024)
        XCTAssertEqual([sheet.width, sheet.height], [layout.width, layout.height])
        let side = CalendarSheet.cellSide
        // A day's picture big enough to see a face at 100 % on a laptop screen; the year then
        // runs to about 2,900 x 3,600 pixels, three months to a row.
        XCTAssertGreaterThanOrEqual(side, 128)
        XCTAssertLessThanOrEqual(sheet.width, 3000, "three months side by side fit a wide screen's width at 100 %")
        func cell(_ day: Int) -> (x: Int, y: Int) { layout.cell(month: 5, day: day) }
        // Inside a cell, away from its number and its frame.
        func inside(_ day: Int) -> [RGB] {
            let c = cell(day)
            return [(side / 2, side / 2), (side - 8, side - 8), (8, side - 8), (side - 8, side / 2)].map { pixel(sheet, (c.x + $0.0, c.y + $0.1)) }
        }
        XCTAssertFalse(inside(1).contains(SheetStyle.emptyCell), "the picked day shows its frame")
        XCTAssertFalse(inside(2).contains(SheetStyle.emptyCell), "the day picked without the person shows its frame")
        XCTAssertEqual(pixel(sheet, (cell(2).x + 1, cell(2).y + side / 2)), SheetStyle.withoutPerson, "and is framed in orange")
        for day in [3, 4, 31] {
            XCTAssertEqual(inside(day), Array(repeating: SheetStyle.emptyCell, count: 4), "05-\(day) has no pick: empty")
        }
        XCTAssertEqual(pixel(sheet, (cell(3).x + 1, cell(3).y + side / 2)), SheetStyle.excluded, "the excluded day is framed in red")
        XCTAssertEqual(pixel(sheet, (cell(4).x + 1, cell(4).y + side / 2)), SheetStyle.emptyCell, "a day without video is not framed")
        // 1 May 2024 was a Wednesday: the third column of the first week.
        XCTAssertEqual(cell(1).x - layout.month(5).x, 2 * (side + CalendarSheet.cellGap))
        XCTAssertEqual(cell(6).x, layout.month(5).x, "Monday 6 May starts the second week")

        // Another year: the same grid, every day empty.
        let empty = try CalendarSheet(output: output("2023.jpg"), overwrite: false).write(year: 2023, days: try days())
        XCTAssertEqual(empty.days.count, 365)
        XCTAssertFalse(empty.days.contains(where: \.inFilm))
        let decoded = try StillImage.read(output("2023.jpg"))
        XCTAssertEqual([decoded.width, decoded.height], [layout.width, layout.height])
    }

    func testRefusalsAndDaysWithoutVideo() throws {
        let existing = output("existing.png")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let sheets: [() throws -> Void] = [
            { _ = try DaySheet(output: existing, overwrite: false) }, { _ = try CalendarSheet(output: existing, overwrite: false) },
        ]
        for make in sheets {
            XCTAssertThrowsError(try make()) { XCTAssertEqual("\($0)", "\(existing): already exists; add -y (--overwrite) to replace it") }
        }
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "keep me", "a refused sheet leaves the file alone")
        XCTAssertThrowsError(try DaySheet(output: output("sheet.gif"), overwrite: false)) {
            XCTAssertTrue("\($0)".contains("is written as .jpg or .jpeg or .png"), "\($0)")
        }

        let days = try days()
        let out = output("day.png")
        XCTAssertThrowsError(try DaySheet(output: out, overwrite: false).write(day: "2024-05-09", days: days)) {
            XCTAssertEqual("\($0)", "the library has no video of 2024-05-09 (see: glimt-pure days)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no sheet for a day without video")
        _ = try LibraryStore(library: root.appendingPathComponent("empty"))
        let empty = try LibraryDays(library: root.appendingPathComponent("empty"), rules: options().rules, lookFor: .noOne)
        XCTAssertThrowsError(try CalendarSheet(output: out, overwrite: false).write(year: nil, days: empty)) {
            XCTAssertEqual("\($0)", "the library has no videos (add some: glimt-pure scan FOLDER)")
        }

        // A video gone since the scan: its tile says so, the others are drawn.
        try FileManager.default.removeItem(atPath: clips[1])
        let outcome = try DaySheet(output: out, overwrite: false).write(day: "2024-05-01", days: days)
        XCTAssertEqual(outcome.unreadable.map(\.path), [clips[1]])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }
}
