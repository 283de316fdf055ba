import Imaging

/// The look both sheets share, so a colour means the same on a day's sheet and on the calendar:
/// green the day's pick, blue a pinned second, orange a pick without the person, red excluded,
/// grey a day with videos but no pick. The colours are the review page's palette
/// (Review/Page/palette.css, read at build time by Plugins/Palette), so they mean the same on
/// screen too; the sheets' shades of dim text, an empty day, excluded and no pick are its
/// `--sheet-*` ones.
public enum SheetStyle {
    public static let background = colour(Palette.bg)
    public static let text = colour(Palette.text)
    public static let dimText = colour(Palette.sheetDim)
    /// A calendar day with nothing to show.
    public static let emptyCell = colour(Palette.sheetEmpty)
    public static let picked = colour(Palette.picked)
    public static let pinned = colour(Palette.pinned)
    public static let withoutPerson = colour(Palette.without)
    public static let excluded = colour(Palette.sheetExcluded)
    /// A day with videos but no pick.
    public static let noPick = colour(Palette.sheetNopick)
    /// One colour per person on the calendar of everyone (in the order the library lists them,
    /// round again after the last): none of them a status colour.
    public static let people = Palette.people.map { colour($0) }

    /// 0xRRGGBB as a colour.
    static func colour(_ hex: UInt32) -> RGB { RGB(UInt8(hex >> 16 & 0xff), UInt8(hex >> 8 & 0xff), UInt8(hex & 0xff)) }

    /// The colour of a day's pick by how it was chosen; nil for a day without one.
    static func colour(of status: DayReport.Status) -> RGB? {
        switch status {
        case .picked: return picked
        case .pinned: return pinned
        case .withoutPerson: return withoutPerson
        default: return nil
        }
    }

    /// Text on a box of `colour`, black on the bright ones: a marker readable on any picture.
    static func tag(_ s: String, on image: inout RGBImage, x: Int, y: Int, scale: Int, _ colour: RGB) {
        let pad = scale * 2
        image.fill(x: x, y: y, width: BitmapFont.width(s, scale: scale) + 2 * pad, height: BitmapFont.height(scale: scale) + 2 * pad, colour)
        image.text(s, x: x + pad, y: y + pad, scale: scale, colour == excluded ? .white : .black)
    }
}
