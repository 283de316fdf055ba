import Foundation
import GlimtCore

/// The zone dates are read in when none is given: the machine's, as Foundation reads it from
/// `TZ`. A `TZ` that names no zone Foundation knows (`Mars/Olympus`, `:Europe/Berlin`, a POSIX
/// rule such as `CET-1CEST,M3.5.0`) is taken as UTC without a word, and every UTC capture time
/// would fall on UTC's day: a run that reads dates says so.
public enum MachineTimeZone {
    /// Why the machine's zone is not the one `TZ` names; nil when it is, or `TZ` is not set.
    public static func problem(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let tz = environment["TZ"], !tz.isEmpty, TimeZone(identifier: tz) == nil else { return nil }
        return "TZ '\(ShownPath.escaped(tz))' names no time zone glimt knows, so dates are read in \(TimeZone.current.identifier); "
            + "set TZ to a zone like Europe/Berlin, or give --timezone"
    }
}
