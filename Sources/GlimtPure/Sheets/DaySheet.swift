import Analysis
import Film
import Foundation
import GlimtCore
import Imaging

/// `glimt-pure show DAY --sheet`: a day's videos side by side, so a person sees at a glance why
/// the day's second is the one it is. One tile per video, in the library's order: the frame in
/// the middle of its best second (of the pinned second, for a pinned video), upright, with its
/// file name, score and the score's parts under it. The pick is framed in its colour and named,
/// the part of it the film shows left bright; excluded videos are dimmed and framed in red.
public struct DaySheet {
    public let output: String

    /// Checks `output` (JPEG or PNG by its extension) before anything is decoded.
    public init(output: String, overwrite: Bool) throws {
        try OutputFile.check(output, extensions: StillImage.extensions, what: "the sheet", overwrite: overwrite)
        self.output = output
    }

    public struct Outcome: Sendable {
        public var report: DayReport
        /// Videos whose frame could not be read: their tiles say so, and so does this.
        public var unreadable: [GlimtError]
    }

    /// The long side of a tile's picture.
    static let tileSide = 320
    static let margin = 16, gap = 16, border = 6, textScale = 2, lineHeight = 18, textLines = 5

    /// Decodes one frame per video of `day` and writes the sheet.
    public func write(day: String, days: LibraryDays) throws -> Outcome {
        try CalendarDay.checked(day)
        try days.reads.check(output, option: "--sheet")
        let report = try days.report(day, choices: try days.choices())
        guard !report.candidates.isEmpty else { throw GlimtError("the library has no video of \(day) (see: glimt-pure days)") }
        var unreadable: [GlimtError] = []
        let tiles = report.candidates.map { candidate in
            var tile = Tile(candidate, report: report, windowLength: days.judgement.rules.windowLength)
            do {
                if let why = days.change(of: candidate.video) { throw GlimtError(why, path: candidate.video) }
                let frame = try StillFrame.at(tile.start.map { $0 + tile.length / 2 }, in: candidate.video)
                let picture = Self.tileSized(frame)
                tile.crop = tile.crop?.scaled(by: Float(picture.width) / Float(frame.width))
                tile.picture = picture
            } catch {
                // One unreadable video (moved, deleted, damaged) still leaves a sheet of the others.
                let e = (error as? GlimtError)?.at(candidate.video) ?? GlimtError("\(error)", path: candidate.video)
                tile.failure = e.reason
                unreadable.append(e)
            }
            return tile
        }
        try StillImage.write(Self.draw(report, tiles), to: output)
        return Outcome(report: report, unreadable: unreadable)
    }

    /// One video as its tile shows it.
    struct Tile {
        var name: String
        /// The second shown (nil when the video is too short for one) and its length.
        var start: Double?
        var length: Double
        var score: Float?
        var parts: FrameScore?
        var containsPerson: Bool?
        var excluded: Bool
        /// The pick's marker and the part of the picture the film shows (tile pixels once decoded).
        var mark: (text: String, colour: RGB)?
        var crop: Box?
        var picture: RGBImage?
        var failure: String?
        /// How its day was read, when that deserves a look: set by hand, or only a file's time.
        var dated: (text: String, colour: RGB)?

        init(_ c: DayReport.Candidate, report: DayReport, windowLength: Double) {
            name = URL(fileURLWithPath: c.video).lastPathComponent
            excluded = c.excluded
            switch c.dateSource {
            case .setByHand: dated = ("DATE SET BY HAND", SheetStyle.pinned)
            case .modificationTime: dated = ("DATED BY FILE TIME", SheetStyle.withoutPerson)
            default: dated = nil
            }
            if c.picked, let pick = report.pick, let colour = SheetStyle.colour(of: report.status) {
                // A pinned second is not the video's best: the tile shows what the film shows.
                (start, length, score, parts, containsPerson) = (pick.start, pick.length, pick.score, pick.parts, pick.identity?.containsPerson)
                mark = (report.status == .pinned ? "PINNED" : report.status == .withoutPerson ? "PICK, NO PERSON" : "PICK", colour)
                crop = pick.crop
            } else {
                (start, length, score, parts, containsPerson) = (c.start, windowLength, c.score, c.parts, c.containsPerson)
            }
        }
    }

    /// Where everything goes on the sheet.
    struct Layout {
        /// The day's verdict, broken into lines under the date.
        let status: [String]
        let grid: TileGrid
        /// Room for the tallest picture of the day.
        let pictureHeight: Int
        let width: Int
        let height: Int
        let gridTop: Int

        init(report: DayReport, tiles: Int, pictureHeight: Int) {
            let tileWidth = tileSide + 2 * border
            grid = TileGrid(
                count: tiles, columns: min(tiles, 4), tileWidth: tileWidth,
                tileHeight: 2 * border + pictureHeight + 8 + textLines * lineHeight, gap: gap)
            self.pictureHeight = pictureHeight
            width = 2 * margin + grid.width
            status = BitmapFont.wrapped(DaySheet.status(report), width: width - 2 * margin, scale: textScale)
            gridTop = margin + BitmapFont.height(scale: 3) + 8 + status.count * lineHeight + gap
            height = gridTop + grid.height + margin
        }

        func tile(_ i: Int) -> (x: Int, y: Int) {
            let o = grid.origin(i)
            return (margin + o.x, gridTop + o.y)
        }

        /// A `width` x `height` picture's top-left corner in tile `i`: centred in its room.
        func picture(_ i: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
            let t = tile(i)
            return (t.x + border + (tileSide - w) / 2, t.y + border + (pictureHeight - h) / 2)
        }
    }

    /// Scaled so the long side is `tileSide`, small videos enlarged too, so tiles line up.
    static func tileSized(_ image: RGBImage) -> RGBImage {
        let s = Double(tileSide) / Double(max(image.width, image.height))
        return Resize.resize(
            image, width: max(1, Int((Double(image.width) * s).rounded())), height: max(1, Int((Double(image.height) * s).rounded())))
    }

    static func status(_ r: DayReport) -> String {
        let pick =
            r.pick.map {
                "\(URL(fileURLWithPath: $0.video).lastPathComponent) at \(String(format: "%.2f", $0.start)) s, score \(String(format: "%.3f", $0.score))"
            } ?? ""
        let note = r.reason.map { " (\($0))" } ?? ""
        switch r.status {
        case .picked: return "picked: " + pick + note
        case .pinned: return "pinned: " + pick + note
        case .withoutPerson: return "picked without the person: " + pick + note
        case .excluded: return r.reason ?? "excluded"
        default: return "no pick: " + (r.reason ?? r.status.rawValue)
        }
    }

    static func draw(_ report: DayReport, _ tiles: [Tile]) -> RGBImage {
        let layout = Layout(report: report, tiles: tiles.count, pictureHeight: tiles.compactMap(\.picture?.height).max() ?? tileSide * 3 / 4)
        var sheet = RGBImage(
            width: layout.width, height: layout.height, fill: (SheetStyle.background.r, SheetStyle.background.g, SheetStyle.background.b))
        // Whose day it is, when someone is looked for: each child has a sheet of their own.
        sheet.text(Caption.text(forDay: report.day) + (report.person.map { "  " + $0 } ?? ""), x: margin, y: margin, scale: 3, SheetStyle.text)
        let verdict = SheetStyle.colour(of: report.status) ?? (report.status == .excluded ? SheetStyle.excluded : SheetStyle.dimText)
        for (k, line) in layout.status.enumerated() {
            sheet.text(line, x: margin, y: margin + BitmapFont.height(scale: 3) + 8 + k * lineHeight, scale: textScale, verdict)
        }
        for (i, tile) in tiles.enumerated() { draw(tile, at: i, layout, on: &sheet) }
        return sheet
    }

    private static func draw(_ tile: Tile, at i: Int, _ layout: Layout, on sheet: inout RGBImage) {
        let (w, h) = tile.picture.map { ($0.width, $0.height) } ?? (tileSide, layout.pictureHeight)
        let at = layout.picture(i, width: w, height: h)
        if let picture = tile.picture {
            sheet.paste(picture, x: at.x, y: at.y)
            if let crop = tile.crop?.clipped(width: w, height: h) {
                // Outside what the film shows, dimmed.
                let x0 = Int(crop.x.rounded()), y0 = Int(crop.y.rounded()), x1 = Int(crop.maxX.rounded()), y1 = Int(crop.maxY.rounded())
                for (x, y, bw, bh) in [(0, 0, w, y0), (0, y1, w, h - y1), (0, y0, x0, y1 - y0), (x1, y0, w - x1, y1 - y0)] {
                    sheet.shade(x: at.x + x, y: at.y + y, width: bw, height: bh, .black, alpha: 0.5)
                }
            }
            if tile.excluded { sheet.shade(x: at.x, y: at.y, width: w, height: h, .black, alpha: 0.6) }
        } else {
            sheet.fill(x: at.x, y: at.y, width: w, height: h, SheetStyle.emptyCell)
        }
        let frame = Box(x: Float(at.x - border), y: Float(at.y - border), width: Float(w + 2 * border), height: Float(h + 2 * border))
        var tags: [(String, RGB)] = []
        if let mark = tile.mark {
            sheet.outline(frame, mark.colour, thickness: border)
            tags.append(mark)
        }
        if tile.excluded {
            if tile.mark == nil { sheet.outline(frame, SheetStyle.excluded, thickness: border / 2) }
            tags.append(("EXCLUDED", SheetStyle.excluded))
        }
        if let dated = tile.dated { tags.append(dated) }
        let tagHeight = BitmapFont.height(scale: textScale) + 4 * textScale
        for (k, tag) in tags.enumerated() { SheetStyle.tag(tag.0, on: &sheet, x: at.x, y: at.y + k * tagHeight, scale: textScale, tag.1) }

        var lines: [(String, RGB)] = [
            (BitmapFont.fitted(tile.name, width: tileSide + 2 * border, scale: textScale), tile.excluded ? SheetStyle.dimText : SheetStyle.text)
        ]
        if let failure = tile.failure {
            lines += BitmapFont.wrapped("cannot read: " + failure, width: tileSide + 2 * border, scale: textScale).map { ($0, SheetStyle.excluded) }
        } else if let score = tile.score, let start = tile.start {
            lines.append((String(format: "SCORE %.3f  AT %.2f S", score, start), SheetStyle.text))
            if let p = tile.parts {
                lines.append((String(format: "LOOKS %.2f  SHARP %.2f", p.aesthetics, p.sharpness), SheetStyle.dimText))
                lines.append(
                    (String(format: "FACE %.2f", p.face) + (p.identity.map { String(format: "  PERSON %.2f", $0) } ?? ""), SheetStyle.dimText))
            }
            if let found = tile.containsPerson {
                lines.append(found ? ("PERSON FOUND", SheetStyle.picked) : ("PERSON NOT FOUND", SheetStyle.dimText))
            }
        } else {
            lines.append(("TOO SHORT FOR A CLIP", SheetStyle.dimText))
        }
        let top = layout.tile(i).y + 2 * border + layout.pictureHeight + 8
        for (k, line) in lines.prefix(textLines).enumerated() {
            sheet.text(line.0, x: layout.tile(i).x, y: top + k * lineHeight, scale: textScale, line.1)
        }
    }
}
