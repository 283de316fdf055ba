import Foundation
import GlimtCore

/// When a video was taken, and so which local calendar day it belongs to.
///
/// Sources, best first:
/// 1. QuickTime `com.apple.quicktime.creationdate`: local wall time with its UTC offset (iPhones);
///    the day is the one on the camera's own clock, wherever the film is made.
/// 2. The container's `creation_time`: UTC; converted with the given time zone (the machine's,
///    or `--timezone`).
/// 3. A Google Takeout sidecar's `photoTakenTime` (UTC; see `TakeoutSidecar`), for exports
///    whose file lost its own date.
/// 4. The file name: `VID_YYYYMMDD_HHMMSS`, `IMG_...`, `YYYYMMDD_HHMMSS` and
///    `VID-YYYYMMDD-WA...` (local time; WhatsApp names carry only the day), `PXL_YYYYMMDD_HHMMSSmmm`
///    (Pixel phones write UTC).
/// 5. The file's modification time, in the given time zone.
public struct CaptureDate: Codable, Equatable, Sendable {
    public enum Source: String, Codable, Sendable {
        case quicktimeCreationDate = "com.apple.quicktime.creationdate"
        case creationTime = "creation_time"
        case takeoutSidecar = "Google Takeout sidecar"
        case fileName = "file name"
        case modificationTime = "file modification time"
        /// Given by the person (`glimt-pure date set`): stands over every other source.
        case setByHand = "set by hand"
    }

    /// The local calendar day, `YYYY-MM-DD`.
    public var day: String
    /// Local wall-clock time `HH:MM:SS` when known.
    public var time: String?
    /// The instant, when the source fixes it (not for local-time file names).
    public var instant: Date?
    public var source: Source

    /// Picks the best available source: `quickTime` and `creationTime` are the container's
    /// metadata values, `sidecar` the time a Takeout sidecar gives, `fileName` the file's name.
    public static func resolve(quickTime: String?, creationTime: String?, sidecar: Date?, fileName: String, modified: Date?,
                               timeZone: TimeZone) -> CaptureDate? {
        if let s = quickTime, let d = fromQuickTime(s) { return d }
        if let s = creationTime, let d = fromUTC(s, timeZone: timeZone) { return d }
        if let sidecar, sidecar.timeIntervalSince1970 > 86_400 * 366 { return CaptureDate(instant: sidecar, timeZone: timeZone, source: .takeoutSidecar) }
        if let d = fromFileName(fileName, timeZone: timeZone) { return d }
        if let modified { return CaptureDate(instant: modified, timeZone: timeZone, source: .modificationTime) }
        return nil
    }

    public init(day: String, time: String?, instant: Date?, source: Source) {
        self.day = day
        self.time = time
        self.instant = instant
        self.source = source
    }

    init(instant: Date, timeZone: TimeZone, source: Source) {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        self.init(day: String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!),
                  time: String(format: "%02d:%02d:%02d", c.hour!, c.minute!, c.second!), instant: instant, source: source)
    }

    /// `2019-07-04T17:32:10+0200`, `...+02:00`, with optional fractional seconds: the day and time
    /// are read as written (the camera's local clock).
    static func fromQuickTime(_ s: String) -> CaptureDate? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard let (date, time) = splitDateTime(t) else { return nil }
        let rest = t.dropFirst(19)
        var offsetSeconds: Int?
        if let signIndex = rest.firstIndex(where: { $0 == "+" || $0 == "-" || $0 == "Z" }) {
            let off = rest[signIndex...]
            if off == "Z" { offsetSeconds = 0 } else {
                let digits = off.dropFirst().filter(\.isNumber)
                if digits.count == 4, let hh = Int(digits.prefix(2)), let mm = Int(digits.suffix(2)) {
                    offsetSeconds = (off.first == "-" ? -1 : 1) * (hh * 3600 + mm * 60)
                }
            }
        }
        var instant: Date?
        if let offsetSeconds, let zone = TimeZone(secondsFromGMT: offsetSeconds) {
            instant = parse(date + " " + time, zone: zone)
        }
        return CaptureDate(day: date, time: time, instant: instant, source: .quicktimeCreationDate)
    }

    /// `2019-07-04T15:32:10.000000Z` (UTC) shown in `timeZone`.
    static func fromUTC(_ s: String, timeZone: TimeZone) -> CaptureDate? {
        guard let (date, time) = splitDateTime(s.trimmingCharacters(in: .whitespaces)),
              let instant = parse(date + " " + time, zone: TimeZone(identifier: "UTC")!) else { return nil }
        // Cameras without a clock write 1970 or 1904 here; that is no date at all.
        guard instant.timeIntervalSince1970 > 86_400 * 366 else { return nil }
        return CaptureDate(instant: instant, timeZone: timeZone, source: .creationTime)
    }

    static func fromFileName(_ name: String, timeZone: TimeZone) -> CaptureDate? {
        let patterns: [(String, Bool)] = [
            (#"PXL_(\d{8})_(\d{6})"#, true),
            (#"(?:VID|IMG|MVIMG|PANO)_(\d{8})_(\d{6})"#, false),
            (#"(?:^|[^\d])(\d{8})_(\d{6})"#, false),
            (#"(?:VID|IMG)-(\d{8})-WA\d+"#, false),
        ]
        for (pattern, utc) in patterns {
            guard let re = try? NSRegularExpression(pattern: pattern),
                  let m = re.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) else { continue }
            let ymd = String(name[Range(m.range(at: 1), in: name)!])
            let hms = m.numberOfRanges > 2 && m.range(at: 2).location != NSNotFound ? String(name[Range(m.range(at: 2), in: name)!]) : nil
            let date = "\(ymd.prefix(4))-\(ymd.dropFirst(4).prefix(2))-\(ymd.suffix(2))"
            let time = hms.map { "\($0.prefix(2)):\($0.dropFirst(2).prefix(2)):\($0.suffix(2))" }
            guard parse(date + " " + (time ?? "12:00:00"), zone: timeZone) != nil else { continue }
            if utc, let time, let instant = parse(date + " " + time, zone: TimeZone(identifier: "UTC")!) {
                return CaptureDate(instant: instant, timeZone: timeZone, source: .fileName)
            }
            return CaptureDate(day: date, time: time, instant: time.flatMap { parse(date + " " + $0, zone: timeZone) }, source: .fileName)
        }
        return nil
    }

    /// "YYYY-MM-DD" and "HH:MM:SS" from an ISO-8601-like string (T or space separated).
    private static func splitDateTime(_ s: String) -> (String, String)? {
        let c = Array(s)
        guard c.count >= 19, c[4] == "-", c[7] == "-", c[10] == "T" || c[10] == " ", c[13] == ":", c[16] == ":" else { return nil }
        let date = String(c[0..<10]), time = String(c[11..<19])
        guard date.replacingOccurrences(of: "-", with: "").allSatisfy(\.isNumber),
              time.replacingOccurrences(of: ":", with: "").allSatisfy(\.isNumber) else { return nil }
        return (date, time)
    }

    private static func parse(_ s: String, zone: TimeZone) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        f.isLenient = false
        return f.date(from: s)
    }
}

/// A local calendar day as glimt writes it, `YYYY-MM-DD`, checked against the calendar (no
/// 2024-02-30), for day ranges a person types.
public enum CalendarDay {
    /// Why `s` is not a day a person may give, or nil when it is one.
    public static func problem(_ s: String) -> String? {
        parse(s) == nil ? "'\(s)' is not a calendar day (write YYYY-MM-DD)" : nil
    }

    /// `s` when it is a day; else a one-line error.
    @discardableResult
    public static func checked(_ s: String) throws -> String {
        if let problem = problem(s) { throw GlimtError(problem) }
        return s
    }

    /// The day itself when `s` is a real date written `YYYY-MM-DD`, else nil.
    public static func parse(_ s: String) -> String? {
        let c = Array(s.utf8)
        guard c.count == 10, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-"),
              let y = Int(s.prefix(4)), let m = Int(s.dropFirst(5).prefix(2)), let d = Int(s.suffix(2)),
              (1...9999).contains(y), (1...12).contains(m), d >= 1 else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return d <= days ? s : nil
    }
}

extension CalendarDay {
    /// `HH:MM:SS` for a time of day written `HH:MM` or `HH:MM:SS`, else nil.
    public static func clockTime(_ s: String) -> String? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60, (parts.count == 2 || Int(parts[2])! < 60) else { return nil }
        return parts.count == 2 ? s + ":00" : s
    }

    /// The day after `day` (`YYYY-MM-DD`).
    public static func next(_ day: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let p = day.split(separator: "-").compactMap { Int($0) }
        guard p.count == 3, let date = calendar.date(from: DateComponents(year: p[0], month: p[1], day: p[2])),
              let after = calendar.date(byAdding: .day, value: 1, to: date) else { return day }
        let c = calendar.dateComponents([.year, .month, .day], from: after)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
