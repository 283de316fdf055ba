/// How old someone born on one calendar day is on another, as a film's caption says it.
///
/// The rule: whole calendar months are counted, and a month is complete on the same day of the
/// month as the birthday, or on the month's last day when the month is shorter (born 31 January:
/// one month on 28 February, or 29 in a leap year; born 29 February 2020: one year on
/// 28 February 2021, four years on 29 February 2024). Under one month the age is in days.
/// It is said "born today" on the birthday, "1 day old" and "N days old" under one month,
/// "1 month" and "N months" under one year, then "1 year", "2 years" and "2 years 3 months".
/// A day before the birth has no age.
///
/// Days are `YYYY-MM-DD` local calendar days, counted here on year, month and day numbers
/// (proleptic Gregorian): no time zone or clock change can move them.
public struct Age: Equatable, Sendable {
    /// Whole months since the birth.
    public var months: Int
    /// Days since the birth when under one month, else 0 (the days past the last whole month are not said).
    public var days: Int

    /// The age on `day` of someone born on `born`; nil when `day` is before `born`, or either is
    /// not a calendar day.
    public init?(born: String, on day: String) {
        guard let b = Self.parse(born), let d = Self.parse(day), (d.y, d.m, d.d) >= (b.y, b.m, b.d) else { return nil }
        var months = (d.y - b.y) * 12 + (d.m - b.m)
        if d.d < min(b.d, Self.daysIn(year: d.y, month: d.m)) { months -= 1 }
        self.months = months
        days = months == 0 ? Self.dayNumber(d) - Self.dayNumber(b) : 0
    }

    /// "born today", "11 days old", "3 months", "1 year", "2 years 3 months".
    public var text: String {
        func count(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if months == 0 { return days == 0 ? "born today" : count(days, "day") + " old" }
        if months < 12 { return count(months, "month") }
        let years = count(months / 12, "year")
        return months % 12 == 0 ? years : years + " " + count(months % 12, "month")
    }

    private struct Day { var y, m, d: Int }

    private static func parse(_ s: String) -> Day? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard s.utf8.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), (1...daysIn(year: y, month: m)).contains(d)
        else { return nil }
        return Day(y: y, m: m, d: d)
    }

    private static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(year y: Int, month m: Int) -> Int {
        [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days since a fixed day: only differences are used (days from civil, H. Hinnant's algorithm).
    private static func dayNumber(_ day: Day) -> Int {
        let y = day.m <= 2 ? day.y - 1 : day.y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (day.m + (day.m > 2 ? -3 : 9)) + 2) / 5 + day.d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe
    }
}
