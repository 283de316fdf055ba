import Foundation
import GlimtCore

/// When a video was taken, and so which local calendar day it belongs to.
///
/// Sources, best first:
/// 0. For a photo, its EXIF `DateTimeOriginal`: local wall time (with `OffsetTimeOriginal` when
///    the camera wrote one); the day is the one on the camera's clock, as for QuickTime's date.
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
        case exif = "EXIF DateTimeOriginal"
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

    /// A video's capture date as its sources give it, with one line for each better source that
    /// was there but gave no date that can be (a month 13, a 30 February, a time past tomorrow,
    /// garbage after the time): the video is dated by the next source, and the person is told.
    public struct Reading: Sendable {
        public var date: CaptureDate?
        /// "its creation date '2024-13-45T10:00:00+0200' is not a real date; dated by its file name instead"
        public var notes: [String]
    }

    /// The latest day a capture date is believed: tomorrow in the zone furthest ahead (UTC+14),
    /// which no clock on Earth shows yet. A day a person gives is held to it too.
    public static func latestDay(now: Date = Date()) -> String {
        CaptureDate(instant: now.addingTimeInterval(86_400), timeZone: TimeZone(secondsFromGMT: 14 * 3600)!, source: .modificationTime).day
    }

    /// Picks the best available source: `quickTime` and `creationTime` are the container's
    /// metadata values, `sidecar` the time a Takeout sidecar gives, `fileName` the file's name.
    /// A date after tomorrow (in the zone furthest ahead, so no clock on Earth shows it yet) is
    /// taken for a wrong clock, like one that cannot be; the modification time, the last resort,
    /// is taken as it is.
    public static func read(
        exif: String? = nil, quickTime: String?, creationTime: String?, sidecar: Date?, fileName: String, modified: Date?,
        timeZone: TimeZone, now: Date = Date()
    ) -> Reading {
        let latest = latestDay(now: now)
        var passedOver: [String] = []
        func taken(_ found: Found, _ what: String) -> CaptureDate? {
            switch found {
            case .nothing: return nil
            case .impossible(let value):
                passedOver.append("\(what) \(quoted(value)) is not a real date")
                return nil
            case .date(let d, let value):
                guard d.day <= latest else {
                    passedOver.append("\(what) \(quoted(value)) is in the future")
                    return nil
                }
                return d
            }
        }
        let sidecarFound: Found =
            sidecar.map {
                $0.timeIntervalSince1970 > 86_400 * 366
                    ? .date(CaptureDate(instant: $0, timeZone: timeZone, source: .takeoutSidecar), ISO8601DateFormatter().string(from: $0)) : .nothing
            } ?? .nothing
        let date =
            taken(exif.map(fromEXIF) ?? .nothing, "its EXIF date")
            ?? taken(quickTime.map(fromQuickTime) ?? .nothing, "its creation date")
            ?? taken(creationTime.map { fromUTC($0, timeZone: timeZone) } ?? .nothing, "its creation time")
            ?? taken(sidecarFound, "its Google Takeout sidecar's time")
            ?? taken(fromFileName(fileName, timeZone: timeZone), "the date in its name")
            ?? modified.map { CaptureDate(instant: $0, timeZone: timeZone, source: .modificationTime) }
        let instead = date.map { "; dated by \($0.source.phrase) instead" } ?? ""
        return Reading(date: date, notes: passedOver.map { $0 + instead })
    }

    /// The best source's date (see `read`), without the lines about sources passed over.
    public static func resolve(
        quickTime: String?, creationTime: String?, sidecar: Date?, fileName: String, modified: Date?,
        timeZone: TimeZone, now: Date = Date()
    ) -> CaptureDate? {
        read(quickTime: quickTime, creationTime: creationTime, sidecar: sidecar, fileName: fileName, modified: modified, timeZone: timeZone, now: now)
            .date
    }

    /// What one source says: nothing (no value, or a clock's placeholder), a date with the text
    /// it was read from, or a value that is no date that can be.
    enum Found: Equatable {
        case nothing
        case date(CaptureDate, String)
        case impossible(String)
    }

    /// A metadata value as a line shows it: quoted, escaped, and cut short when long.
    private static func quoted(_ value: String) -> String {
        "'" + ShownPath.escaped(String(value.prefix(40))) + (value.count > 40 ? "..." : "") + "'"
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
        self.init(
            day: String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!),
            time: String(format: "%02d:%02d:%02d", c.hour!, c.minute!, c.second!), instant: instant, source: source)
    }

    /// `2019-07-04T17:32:10+0200`, `...+02:00`, with optional fractional seconds: the day and time
    /// are read as written (the camera's local clock).
    static func fromQuickTime(_ s: String) -> Found {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { return .nothing }
        guard let (date, time, offset) = dateTime(t) else { return .impossible(t) }
        let instant = offset.flatMap { TimeZone(secondsFromGMT: $0) }.flatMap { parse(date + " " + time, zone: $0) }
        return .date(CaptureDate(day: date, time: time, instant: instant, source: .quicktimeCreationDate), t)
    }

    /// A photo's EXIF time as `EXIF.captureTime` writes it (`2024-05-03T19:20:00`, `+02:00` when
    /// known): read as written, like QuickTime's. A camera that never had its clock set writes
    /// zeros: no date at all.
    static func fromEXIF(_ s: String) -> Found {
        if s.hasPrefix("0000") { return .nothing }
        let found = fromQuickTime(s)
        guard case .date(var d, let value) = found else { return found }
        d.source = .exif
        return .date(d, value)
    }

    /// `2019-07-04T15:32:10.000000Z` (UTC, or the offset it gives) shown in `timeZone`.
    static func fromUTC(_ s: String, timeZone: TimeZone) -> Found {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty else { return .nothing }
        guard let (date, time, offset) = dateTime(t), let zone = TimeZone(secondsFromGMT: offset ?? 0),
            let instant = parse(date + " " + time, zone: zone)
        else { return .impossible(t) }
        // Cameras without a clock write 1970 or 1904 here; that is no date at all.
        guard instant.timeIntervalSince1970 > 86_400 * 366 else { return .nothing }
        return .date(CaptureDate(instant: instant, timeZone: timeZone, source: .creationTime), t)
    }

    static func fromFileName(_ name: String, timeZone: TimeZone) -> Found {
        let patterns: [(String, Bool)] = [
            (#"PXL_(\d{8})_(\d{6})"#, true),
            (#"(?:VID|IMG|MVIMG|PANO)_(\d{8})_(\d{6})"#, false),
            (#"(?:^|[^\d])(\d{8})_(\d{6})"#, false),
            (#"(?:VID|IMG)-(\d{8})-WA\d+"#, false),
        ]
        var impossible: String?
        for (pattern, utc) in patterns {
            guard let re = try? NSRegularExpression(pattern: pattern),
                let m = re.firstMatch(in: name, range: NSRange(name.startIndex..., in: name))
            else { continue }
            let ymd = String(name[Range(m.range(at: 1), in: name)!])
            let hms = m.numberOfRanges > 2 && m.range(at: 2).location != NSNotFound ? String(name[Range(m.range(at: 2), in: name)!]) : nil
            let written = ymd + (hms.map { "_" + $0 } ?? "")
            let date = "\(ymd.prefix(4))-\(ymd.dropFirst(4).prefix(2))-\(ymd.suffix(2))"
            let time = hms.map { "\($0.prefix(2)):\($0.dropFirst(2).prefix(2)):\($0.suffix(2))" }
            guard CalendarDay.parse(date) != nil, parse(date + " " + (time ?? "12:00:00"), zone: timeZone) != nil else {
                impossible = impossible ?? written
                continue
            }
            if utc, let time, let instant = parse(date + " " + time, zone: TimeZone(identifier: "UTC")!) {
                return .date(CaptureDate(instant: instant, timeZone: timeZone, source: .fileName), written)
            }
            return .date(
                CaptureDate(day: date, time: time, instant: time.flatMap { parse(date + " " + $0, zone: timeZone) }, source: .fileName), written)
        }
        return impossible.map(Found.impossible) ?? .nothing
    }

    /// "YYYY-MM-DD", "HH:MM:SS" and the UTC offset in seconds (nil when none is written) of an
    /// ISO-8601 time (T or space separated; optional fraction; `Z`, `+HH`, `+HHMM` or `+HH:MM`),
    /// when it is a time that can be: nil for a 13th month, a 30 February, a 25th hour or
    /// anything after it that is none of those.
    static func dateTime(_ s: String) -> (date: String, time: String, offset: Int?)? {
        let c = Array(s.unicodeScalars)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= c.count, range.allSatisfy({ ("0"..."9").contains(c[$0]) }) else { return nil }
            return Int(String(String.UnicodeScalarView(c[range])))
        }
        guard c.count >= 19, c[4] == "-", c[7] == "-", c[10] == "T" || c[10] == " ", c[13] == ":", c[16] == ":",
            digits(0..<4) != nil, digits(5..<7) != nil, digits(8..<10) != nil,
            let h = digits(11..<13), let m = digits(14..<16), let sec = digits(17..<19), h < 24, m < 60, sec < 60
        else { return nil }
        let date = String(String.UnicodeScalarView(c[0..<10])), time = String(String.UnicodeScalarView(c[11..<19]))
        guard CalendarDay.parse(date) != nil else { return nil }
        var i = 19
        if i < c.count, c[i] == "." {
            i += 1
            let start = i
            while i < c.count, ("0"..."9").contains(c[i]) { i += 1 }
            guard i > start else { return nil }
        }
        var offset: Int?
        if i < c.count, c[i] == "Z" {
            offset = 0
            i += 1
        } else if i < c.count, c[i] == "+" || c[i] == "-" {
            let sign = c[i] == "-" ? -1 : 1
            guard let hh = digits(i + 1..<i + 3), hh <= 14 else { return nil }
            i += 3
            if i < c.count, c[i] == ":" { i += 1 }
            var mm = 0
            if i < c.count {
                guard let minutes = digits(i..<i + 2), minutes < 60 else { return nil }
                mm = minutes
                i += 2
            }
            offset = sign * (hh * 3600 + mm * 60)
        }
        return i == c.count ? (date, time, offset) : nil
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

extension CaptureDate.Source {
    /// How a line names the source a video was dated by.
    var phrase: String {
        switch self {
        case .exif: return "its EXIF date"
        case .quicktimeCreationDate: return "its creation date"
        case .creationTime: return "its creation time"
        case .takeoutSidecar: return "its Google Takeout sidecar"
        case .fileName: return "its file name"
        case .modificationTime: return "its file's modification time"
        case .setByHand: return "the day set by hand"
        }
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
            (1...9999).contains(y), (1...12).contains(m), d >= 1
        else { return nil }
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
            let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60, parts.count == 2 || Int(parts[2])! < 60
        else { return nil }
        return parts.count == 2 ? s + ":00" : s
    }

    /// The day after `day` (`YYYY-MM-DD`).
    public static func next(_ day: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let p = day.split(separator: "-").compactMap { Int($0) }
        guard p.count == 3, let date = calendar.date(from: DateComponents(year: p[0], month: p[1], day: p[2])),
            let after = calendar.date(byAdding: .day, value: 1, to: date)
        else { return day }
        let c = calendar.dateComponents([.year, .month, .day], from: after)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }
}
