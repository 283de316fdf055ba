import Foundation
import Imaging

/// The burned-in caption (the date, names, an age): built-in bitmap font, light text on a
/// translucent dark band, sized for a phone screen (text about a fortieth of the frame's height).
public enum Caption {
    /// What a clip's caption says, or nil for none. `born` is the birthday an age counts from
    /// (see `Age`): a clip before it, or without one, has no age (the date alone for date+age).
    public static func text(_ choice: FilmOptions.Caption, segment s: FilmSegment, born: String? = nil) -> String? {
        let names = (s.names ?? []).isEmpty ? nil : s.names!.joined(separator: ", ").uppercased()
        let age = born.flatMap { Age(born: $0, on: s.day) }.map { $0.text.uppercased() }
        switch choice {
        case .none: return nil
        case .date: return text(forDay: s.day)
        case .names: return names
        case .dateAndNames: return names.map { text(forDay: s.day) + separator + $0 } ?? text(forDay: s.day)
        case .age: return age
        case .dateAndAge: return age.map { text(forDay: s.day) + separator + $0 } ?? text(forDay: s.day)
        }
    }

    /// Between the date and what follows it; where the caption is too wide for the frame, its
    /// lines break here first.
    static let separator = "  "

    public static func text(forDay day: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        guard let date = f.date(from: day) else { return day }
        f.dateFormat = "EEE d MMM yyyy"
        return f.string(from: date).uppercased()
    }

    /// Bottom left, on one band; a caption wider than the frame takes a line for each part
    /// (see `separator`), and a part still too wide is wrapped at its spaces.
    public static func draw(_ text: String, on frame: inout RGBImage) {
        let scale = max(2, min(frame.width, frame.height) / 160)
        let margin = scale * 8
        let pad = scale * 3
        let room = frame.width - 2 * margin - 2 * pad
        let lines =
            BitmapFont.width(text, scale: scale) <= room
            ? [text] : text.components(separatedBy: separator).flatMap { BitmapFont.wrapped($0, width: room, scale: scale) }
        let textW = lines.map { BitmapFont.width($0, scale: scale) }.max() ?? 0, lineH = BitmapFont.height(scale: scale)
        let gap = scale * 3
        let textH = lines.count * lineH + (lines.count - 1) * gap
        let y = frame.height - margin - textH - 2 * pad
        frame.shade(x: margin, y: y, width: textW + 2 * pad, height: textH + 2 * pad, .black, alpha: 0.45)
        for (i, line) in lines.enumerated() { frame.text(line, x: margin + pad, y: y + pad + i * (lineH + gap), scale: scale, .white) }
    }
}
