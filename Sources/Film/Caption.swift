import Foundation
import Imaging

/// The burned-in date: built-in bitmap font, light text on a translucent dark band, sized for a
/// phone screen (text about a fortieth of the frame's height).
public enum Caption {
    /// What a clip's caption says, or nil for none.
    public static func text(_ choice: FilmOptions.Caption, segment s: FilmSegment) -> String? {
        let names = (s.names ?? []).isEmpty ? nil : s.names!.joined(separator: ", ").uppercased()
        switch choice {
        case .none: return nil
        case .date: return text(forDay: s.day)
        case .names: return names
        case .dateAndNames: return names.map { text(forDay: s.day) + "  " + $0 } ?? text(forDay: s.day)
        }
    }

    public static func text(forDay day: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        guard let date = f.date(from: day) else { return day }
        f.dateFormat = "EEE d MMM yyyy"
        return f.string(from: date).uppercased()
    }

    public static func draw(_ text: String, on frame: inout RGBImage) {
        let scale = max(2, min(frame.width, frame.height) / 160)
        let margin = scale * 8
        let textW = BitmapFont.width(text, scale: scale), textH = BitmapFont.height(scale: scale)
        let pad = scale * 3
        let y = frame.height - margin - textH - 2 * pad
        frame.shade(x: margin, y: y, width: textW + 2 * pad, height: textH + 2 * pad, .black, alpha: 0.45)
        frame.text(text, x: margin + pad, y: y + pad, scale: scale, .white)
    }
}
