import Foundation

/// Where glimt keeps what it learns (references, later the scan catalogue and the user's
/// overrides): `--library DIR`, else `$XDG_DATA_HOME/glimt`, else `~/.local/share/glimt`.
public enum LibraryLocation {
    /// Where the library is when no folder is named, as help and the manual say it.
    public static let standard = "$XDG_DATA_HOME/glimt, else ~/.local/share/glimt"

    public static func resolve(_ explicit: String?) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit, isDirectory: true).standardizedFileURL }
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("glimt", isDirectory: true)
        }
        let home = env["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/glimt", isDirectory: true)
    }
}
