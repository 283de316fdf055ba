import Foundation

/// Where glimt keeps what it learns (references, later the scan catalogue and the user's
/// overrides): `--library DIR`, else `$XDG_DATA_HOME/glimt`, else `~/.local/share/glimt`.
public enum LibraryLocation {
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

/// Writes that never leave a half-written file under the final name: the bytes go to a
/// temporary file in the same folder, which is renamed into place (atomic on one filesystem).
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws {
        let dir = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let tmp = temporaryURL(for: url)
            try data.write(to: tmp)
            try replace(url, with: tmp)
        } catch let e as GlimtError {
            throw e
        } catch {
            throw GlimtError("cannot write (\(error.localizedDescription))", path: url.path)
        }
    }

    /// A hidden sibling name for work in progress on `url`.
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
    }

    /// Moves a finished temporary file over `url` (rename(2) replaces atomically).
    public static func replace(_ url: URL, with tmp: URL) throws {
        guard rename(tmp.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: tmp)
            throw GlimtError("cannot move the finished file into place (\(reason))", path: url.path)
        }
    }
}
