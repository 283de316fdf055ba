import Imaging

/// The look both sheets share, so a colour means the same on a day's sheet and on the calendar:
/// green the day's pick, blue a pinned second, orange a pick without the person, red excluded,
/// grey a day with videos but no pick.
public enum SheetStyle {
    public static let background = RGB(24, 24, 24)
    public static let text = RGB(235, 235, 235)
    public static let dimText = RGB(150, 150, 150)
    /// A calendar day with nothing to show.
    public static let emptyCell = RGB(46, 46, 46)
    public static let picked = RGB(46, 204, 64)
    public static let pinned = RGB(64, 150, 255)
    public static let withoutPerson = RGB(255, 140, 26)
    public static let excluded = RGB(232, 44, 44)
    /// A day with videos but no pick.
    public static let noPick = RGB(110, 110, 110)
    /// One colour per person on the calendar of everyone (in the order the library lists them,
    /// round again after the eighth): none of them a status colour.
    public static let people = [RGB(255, 214, 0), RGB(230, 60, 200), RGB(0, 200, 220), RGB(150, 230, 60),
                                RGB(150, 100, 255), RGB(255, 120, 160), RGB(0, 160, 140), RGB(240, 240, 240)]

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
