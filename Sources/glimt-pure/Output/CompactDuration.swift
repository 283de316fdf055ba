import Foundation

/// A span of seconds as a progress line or status says it: `1h02m`, `4m05s`, `12s`.
enum CompactDuration {
    static func text(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 3600 { return String(format: "%dh%02dm", s / 3600, s % 3600 / 60) }
        if s >= 60 { return String(format: "%dm%02ds", s / 60, s % 60) }
        return "\(s)s"
    }
}
