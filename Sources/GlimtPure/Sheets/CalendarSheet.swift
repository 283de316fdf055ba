import Analysis
import Film
import Foundation
import GlimtCore
import Imaging

/// `glimt-pure calendar --sheet`: a year at a glance. Twelve months of weeks (Monday first); a
/// day with a pick shows its chosen frame, filled around the part the film shows; a day without
/// one is left empty, its number in grey. Framed: blue a pinned second, orange a pick without
/// the person, red an excluded day, grey a day with videos but no pick.
public struct CalendarSheet {
    public let output: String

    /// Checks `output` (JPEG or PNG by its extension) before anything is decoded.
    public init(output: String, overwrite: Bool) throws {
        try OutputFile.check(output, extensions: StillImage.extensions, what: "the sheet", overwrite: overwrite)
        self.output = output
    }

    public struct Outcome: Sendable {
        public var year: Int
        /// Every day of the year, judged as 'glimt-pure days' judges it.
        public var days: [DayReport]
        /// Picks whose frame could not be read: their days are drawn empty, with a "?".
        public var unreadable: [GlimtError]
    }

    /// A day's picture is 128 pixels square, shown around the face, so a face is 40 pixels high
    /// or more: recognisable at 100 % on a laptop screen. Three months to a row make the sheet
    /// 2,872 x 3,552 pixels (a year scrolls; a month fits a screen).
    static let cellSide = 128, cellGap = 4, monthGap = 32, margin = 24, monthsPerRow = 3
    static let monthNames = [
        "JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER",
    ]

    /// Judges every day of `year` (default: the year of the library's latest day), decodes one
    /// frame per picked day and writes the sheet. `progress` is told before each frame is read.
    public func write(year: Int?, days: LibraryDays, progress: ((_ done: Int, _ total: Int, _ day: String) -> Void)? = nil) throws -> Outcome {
        try days.reads.check(output, option: "--sheet")
        let y: Int
        if let year {
            guard (1...9999).contains(year) else { throw GlimtError("\(year) is not a year from 1 to 9999") }
            // A year no video can be of yet draws an empty sheet: said instead.
            let first = Int(LibraryChoices.earliestDay.prefix(4))!, last = Int(CaptureDate.latestDay().prefix(4))!
            guard (first...last).contains(year) else {
                throw GlimtError("\(year) is outside the years glimt handles (\(first) to \(last), the year of tomorrow in the zone furthest ahead)")
            }
            y = year
        } else {
            guard let last = try days.store.days().last, let latest = Int(last.prefix(4)) else {
                throw GlimtError("the library has no videos (add some: glimt-pure scan FOLDER)")
            }
            y = latest
        }
        var reports: [DayReport] = []
        try days.forEachDay(from: String(format: "%04d-01-01", y), to: String(format: "%04d-12-31", y)) { reports.append($0) }
        let picks = reports.compactMap(\.pick)
        var thumbnails: [String: RGBImage] = [:]
        var unreadable: [GlimtError] = []
        for (i, pick) in picks.enumerated() {
            progress?(i, picks.count, pick.day)
            do {
                if let why = days.change(of: pick.video) { throw GlimtError(why, path: pick.video) }
                let frame = try StillFrame.at(pick.start + pick.length / 2, in: pick.video)
                // Around where the framing puts the face (a little above the crop's middle), a
                // square of 0.6 of the crop's height with room above for the head: the face, not
                // the room.
                let c = pick.crop
                let side = min(c.width, c.height * 0.6)
                let faceY = c.y + c.height * Framing.faceHeightPosition
                let focus = Box(x: c.x + (c.width - side) / 2, y: max(c.y, faceY - side * 0.6), width: side, height: side)
                thumbnails[pick.day] = Resize.filling(frame, width: Self.cellSide, height: Self.cellSide, around: focus)
            } catch {
                // One unreadable video (moved, deleted, damaged) still leaves a calendar of the rest.
                unreadable.append((error as? GlimtError)?.at(pick.video) ?? GlimtError("\(error)", path: pick.video))
            }
        }
        // For everyone's calendar, a mark per person found on a day, in their colour.
        let people = days.lookFor.everyone ? days.lookFor.people.filter { !$0.references.isEmpty }.map(\.name) : []
        try StillImage.write(Self.draw(year: y, reports, thumbnails: thumbnails, people: people), to: output)
        return Outcome(year: y, days: reports, unreadable: unreadable)
    }

    /// Where everything goes on the sheet.
    struct Layout {
        let year: Int
        let months: TileGrid
        let top: Int
        let width: Int
        let height: Int
        static let monthHeader = 22, weekdayRow = 20

        init(year: Int) {
            self.year = year
            months = TileGrid(
                count: 12, columns: monthsPerRow, tileWidth: 7 * cellSide + 6 * cellGap,
                tileHeight: Self.monthHeader + Self.weekdayRow + 6 * cellSide + 5 * cellGap, gap: monthGap)
            top = margin + BitmapFont.height(scale: 4) + 14 + BitmapFont.height(scale: 2) + monthGap
            width = 2 * margin + months.width
            height = top + months.height + margin
        }

        /// Top-left corner of month `m` (1-12).
        func month(_ m: Int) -> (x: Int, y: Int) {
            let o = months.origin(m - 1)
            return (margin + o.x, top + o.y)
        }

        /// Top-left corner of the cell of day `d` of month `m`.
        func cell(month m: Int, day d: Int) -> (x: Int, y: Int) {
            let origin = month(m)
            let index = CalendarSheet.weekday(year: year, month: m, day: 1) + d - 1
            return (origin.x + (index % 7) * (cellSide + cellGap), origin.y + Self.monthHeader + Self.weekdayRow + (index / 7) * (cellSide + cellGap))
        }
    }

    /// 0 for Monday to 6 for Sunday.
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        return (calendar.component(.weekday, from: date) + 5) % 7
    }

    static func draw(year: Int, _ reports: [DayReport], thumbnails: [String: RGBImage], people: [String] = []) -> RGBImage {
        let layout = Layout(year: year)
        var sheet = RGBImage(
            width: layout.width, height: layout.height, fill: (SheetStyle.background.r, SheetStyle.background.g, SheetStyle.background.b))
        let title = String(year) + (reports.first?.person.map { "  " + $0 } ?? "")
        sheet.text(title, x: margin, y: margin, scale: 4, SheetStyle.text)
        let inFilm = reports.filter(\.inFilm).count
        sheet.text(
            "\(inFilm) day\(inFilm == 1 ? "" : "s") in the film", x: margin + BitmapFont.width(title, scale: 4) + 24,
            y: margin + BitmapFont.height(scale: 4) - BitmapFont.height(scale: 2), scale: 2, SheetStyle.dimText)
        var x = margin
        let legendY = margin + BitmapFont.height(scale: 4) + 14
        for (colour, text) in [
            (SheetStyle.pinned, "pinned"), (SheetStyle.withoutPerson, "without the person"),
            (SheetStyle.excluded, "excluded"), (SheetStyle.noPick, "videos, no pick"),
        ] {
            sheet.fill(x: x, y: legendY, width: 14, height: 14, SheetStyle.emptyCell)
            sheet.outline(Box(x: Float(x), y: Float(legendY), width: 14, height: 14), colour, thickness: 3)
            sheet.text(text, x: x + 22, y: legendY, scale: 2, SheetStyle.dimText)
            x += 22 + BitmapFont.width(text, scale: 2) + 28
        }
        SheetStyle.tag(photoTag, on: &sheet, x: x, y: legendY - 4, scale: 2, SheetStyle.text)
        x += BitmapFont.width(photoTag, scale: 2) + 8 + 8
        sheet.text("a photo's day", x: x, y: legendY, scale: 2, SheetStyle.dimText)
        x += BitmapFont.width("a photo's day", scale: 2) + 28
        for (k, name) in people.enumerated() {
            sheet.fill(x: x, y: legendY, width: 14, height: 14, SheetStyle.people[k % SheetStyle.people.count])
            sheet.text(name, x: x + 22, y: legendY, scale: 2, SheetStyle.text)
            x += 22 + BitmapFont.width(name, scale: 2) + 28
        }

        let byDay = Dictionary(reports.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        for m in 1...12 {
            let origin = layout.month(m)
            sheet.text(monthNames[m - 1], x: origin.x, y: origin.y, scale: 2, SheetStyle.text)
            for (k, letter) in ["M", "T", "W", "T", "F", "S", "S"].enumerated() {
                sheet.text(
                    letter, x: origin.x + k * (cellSide + cellGap) + (cellSide - 2 * BitmapFont.glyphWidth) / 2, y: origin.y + Layout.monthHeader,
                    scale: 2, SheetStyle.dimText)
            }
            var d = 1
            while let day = CalendarDay.parse(String(format: "%04d-%02d-%02d", year, m, d)) {
                let at = layout.cell(month: m, day: d)
                drawDay(d, byDay[day], thumbnail: thumbnails[day], at: at, on: &sheet)
                for (k, name) in people.enumerated() where byDay[day]?.peopleFound?.contains(name) == true {
                    let mark = (x: at.x + 4 + k * 18, y: at.y + cellSide - 18)
                    sheet.fill(x: mark.x - 1, y: mark.y - 1, width: 16, height: 16, .black)
                    sheet.fill(x: mark.x, y: mark.y, width: 14, height: 14, SheetStyle.people[k % SheetStyle.people.count])
                }
                d += 1
            }
        }
        return sheet
    }

    private static func drawDay(_ d: Int, _ report: DayReport?, thumbnail: RGBImage?, at: (x: Int, y: Int), on sheet: inout RGBImage) {
        let box = Box(x: Float(at.x), y: Float(at.y), width: Float(cellSide), height: Float(cellSide))
        let status = report?.status ?? .noVideo
        if let thumbnail {
            sheet.paste(thumbnail, x: at.x, y: at.y)
        } else {
            sheet.fill(x: at.x, y: at.y, width: cellSide, height: cellSide, SheetStyle.emptyCell)
            sheet.text(String(d), x: at.x + 4, y: at.y + 4, scale: 2, status == .excluded ? SheetStyle.excluded : SheetStyle.dimText)
            if report?.pick != nil {
                // Picked, but its frame could not be read.
                sheet.text(
                    "?", x: at.x + (cellSide - BitmapFont.glyphWidth * 3) / 2, y: at.y + (cellSide - BitmapFont.height(scale: 3)) / 2, scale: 3,
                    SheetStyle.excluded)
            }
        }
        switch status {
        case .pinned: sheet.outline(box, SheetStyle.pinned, thickness: 3)
        case .withoutPerson: sheet.outline(box, SheetStyle.withoutPerson, thickness: 3)
        case .excluded: sheet.outline(box, SheetStyle.excluded, thickness: 3)
        case .noPerson, .tooShort, .setAside: sheet.outline(box, SheetStyle.noPick, thickness: 3)
        case .picked, .noVideo: break
        }
        // Inside the frame, so the frame never hides it.
        if thumbnail != nil { sheet.label(String(d), x: at.x + 3, y: at.y + 3, scale: 2) }
        if report?.pick?.photo == true {
            SheetStyle.tag(
                photoTag, on: &sheet, x: at.x + cellSide - BitmapFont.width(photoTag, scale: 2) - 8 - 3, y: at.y + 3, scale: 2, SheetStyle.text)
        }
    }

    /// The mark of a day whose second is a photo (see `PhotoUse`).
    static let photoTag = "photo"
}
