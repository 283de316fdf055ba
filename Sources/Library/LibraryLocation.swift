import Foundation
import GlimtCore

/// Where glimt keeps what it learns (the store, references, the user's choices): `--library
/// DIR`, else `$XDG_DATA_HOME/glimt`, else `$HOME/.local/share/glimt`. Read from the environment
/// only: the user database (NSS: nscd, /etc/passwd) is never asked for a home folder.
public enum LibraryLocation {
    /// Where the library is when no folder is named, as help and the manual say it.
    public static let standard = "$XDG_DATA_HOME/glimt, else ~/.local/share/glimt"

    /// The library folder; with neither an absolute `XDG_DATA_HOME` (the XDG spec says a relative
    /// one is ignored) nor an absolute `HOME`, a one-line error saying what to set: an empty or
    /// relative HOME would put the library wherever the command happens to run.
    public static func resolve(_ explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit, isDirectory: true).standardizedFileURL }
        let xdg = environment["XDG_DATA_HOME"], home = environment["HOME"]
        if let xdg, xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("glimt", isDirectory: true)
        }
        if let home, home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/glimt", isDirectory: true)
        }
        throw GlimtError(
            "cannot tell where the library is: \(unusable("HOME", home)) and \(unusable("XDG_DATA_HOME", xdg)); "
                + "set HOME or XDG_DATA_HOME to an absolute folder, or give --library DIR")
    }

    private static func unusable(_ name: String, _ value: String?) -> String {
        guard let value else { return "\(name) is not set" }
        return value.isEmpty ? "\(name) is empty" : "\(name) '\(ShownPath.escaped(value))' is not an absolute path"
    }
}
