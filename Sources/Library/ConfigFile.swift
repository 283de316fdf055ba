import Foundation
import GlimtCore

/// The person's settings, `$XDG_CONFIG_HOME/glimt/config`, else `$HOME/.config/glimt/config`
/// (read from the environment only, like the library's folder: the user database is never
/// asked for a home folder). A text file a person may edit, one setting a line:
///
///     # the folders 'glimt-pure scan' scans when it is given none
///     folder /home/me/Videos
///     folder ~/Pictures/Phone
///
/// A line is blank, a comment (its first character that is not a space is `#`), or
/// `folder PATH`: the path runs to the end of the line, with the spaces at its ends left out;
/// it is absolute, or starts with `~/` for the home folder. Anything else, or a folder named
/// twice, is refused in one line naming the file and the line. `glimt-pure folders add|remove`
/// changes only the lines of the folder it names and keeps every other byte, comments included.
/// A file saved on another system reads as the same lines: CRLF line ends and a UTF-8 byte order
/// mark are kept as they are; what would be misread (UTF-16 or UTF-32, old Mac line ends of CR
/// alone, a NUL byte) is refused in one line.
public struct ConfigFile: Sendable {
    /// Where the file is when no folder is named, as help and the manual say it.
    public static let standard = "$XDG_CONFIG_HOME/glimt/config, else ~/.config/glimt/config"
    /// Settings are a few lines; past this a file is not one.
    public static let maxBytes = 1 << 20

    public let path: String
    /// The file's lines as they are (each without its newline, a CR before it kept), to write
    /// back unchanged.
    private var lines: [String]
    private let home: String?
    /// The file starts with a UTF-8 byte order mark, written back before the first line.
    private var byteOrderMark = false

    /// The watched folders, absolute, in the file's order.
    public var folders: [String] { lines.compactMap { (try? Self.folder(in: $0, home: home)) ?? nil } }

    /// The file at its standard place; with neither an absolute `XDG_CONFIG_HOME` (the XDG spec
    /// says a relative one is ignored) nor an absolute `HOME`, a one-line error saying what to set.
    public static func location(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let xdg = environment["XDG_CONFIG_HOME"], home = environment["HOME"]
        if let xdg, xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("glimt/config").path }
        if let home, home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config/glimt/config").path }
        throw GlimtError("cannot tell where the settings are: set HOME or XDG_CONFIG_HOME to an absolute folder")
    }

    /// Reads and checks the file (a missing one is an empty one).
    public static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ConfigFile {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        guard (try? FileStatus(path)) != nil else { return ConfigFile(path: path, lines: [], home: home) }
        let bytes: [UInt8]
        do { bytes = try FileName.read(path, limit: maxBytes) } catch let e as GlimtError {
            throw GlimtError("cannot read the settings (\(e.reason))", path: path)
        }
        if let wide = wideEncoding(bytes) {
            throw GlimtError("is \(wide) text; glimt reads its settings as UTF-8 (save it as UTF-8)", path: path)
        }
        let byteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        var rows = (byteOrderMark ? Array(bytes.dropFirst(3)) : bytes).split(separator: 0x0A, omittingEmptySubsequences: false)
        if rows.last?.isEmpty == true { rows.removeLast() }
        for (i, row) in rows.enumerated() {
            let text = row.last == 0x0D ? row.dropLast() : row[...]
            if text.contains(0x0D) {
                throw GlimtError(
                    "line \(i + 1) holds a carriage return inside it (old Mac line ends?); save the file with LF or CRLF line ends", path: path)
            }
            if text.contains(0) { throw GlimtError("line \(i + 1) holds a NUL byte; this is not a settings file as glimt writes it", path: path) }
        }
        let lines = rows.map { FileName.string(fromBytes: $0) }
        var seen: [String: Int] = [:]
        for (i, line) in lines.enumerated() {
            do {
                guard let folder = try folder(in: line, home: home) else { continue }
                if let first = seen[folder] { throw GlimtError("the folder \(ShownPath.escaped(folder)) is named twice (first on line \(first))") }
                seen[folder] = i + 1
            } catch let e as GlimtError {
                throw GlimtError("line \(i + 1): \(e.reason)", path: path)
            }
        }
        var config = ConfigFile(path: path, lines: lines, home: home)
        config.byteOrderMark = byteOrderMark
        return config
    }

    /// "UTF-16" or "UTF-32" when `bytes` start with its byte order mark, or with the zero bytes
    /// of a first character of ASCII in it.
    static func wideEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32" }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        guard bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0) else { return nil }
        return bytes.count >= 4 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0 ? "UTF-32" : "UTF-16"
    }

    /// The folder a line names, nil for a blank line or a comment; throws what is wrong with it.
    static func folder(in rawLine: String, home: String?) throws -> String? {
        let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
        let text = line.drop { $0 == " " || $0 == "\t" }
        if text.isEmpty || text.hasPrefix("#") { return nil }
        let word = text.prefix { $0 != " " && $0 != "\t" }
        guard word == "folder" else {
            throw GlimtError(
                "'\(ShownPath.escaped(String(word.prefix(40))))' is not a setting (a line is 'folder /absolute/path', or a comment after #)")
        }
        let value = String(text.dropFirst(word.count)).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard !value.isEmpty else { throw GlimtError("'folder' needs the folder's path after it") }
        var path = value
        if value == "~" || value.hasPrefix("~/") {
            guard let home else {
                throw GlimtError("'\(ShownPath.escaped(value))' starts with ~, and HOME is not an absolute folder; write the path in full")
            }
            path = home + value.dropFirst()
        }
        guard path.hasPrefix("/") else { throw GlimtError("'\(ShownPath.escaped(value))' is not an absolute path (write it from /, or from ~/)") }
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL.path
    }

    /// Adds `folder` (absolute) as a `folder` line at the end; false when it is there already.
    public mutating func add(_ folder: String) -> Bool {
        guard !folders.contains(folder) else { return false }
        if lines.isEmpty {
            lines = [
                "# glimt-pure's settings. 'folder PATH' lines name the folders 'glimt-pure scan' scans when it",
                "# is given none ('glimt-pure folders add|remove' edits them; so may you).",
            ]
        }
        // A file of CRLF lines gets one more of them.
        lines.append("folder \(folder)" + (lines.last?.hasSuffix("\r") == true ? "\r" : ""))
        return true
    }

    /// Removes the line that names `folder`; false when none does.
    public mutating func remove(_ folder: String) -> Bool {
        let before = lines.count
        lines.removeAll { (try? Self.folder(in: $0, home: home)) == folder }
        return lines.count != before
    }

    /// Writes the file atomically, creating its folder.
    public func save() throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw GlimtError("cannot create the settings' folder (\(JSONFile.reason(error)))", path: folder.path)
        }
        try AtomicFile.write((byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + FileName.bytes(lines.map { $0 + "\n" }.joined()), to: path)
    }

    /// Reads, changes and writes the file under a lock beside it, so two changes at once both land
    /// (written only when it changed).
    public static func change<T>(
        _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: (inout ConfigFile) throws -> T
    ) throws -> T {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw GlimtError("cannot create the settings' folder (\(JSONFile.reason(error)))", path: folder.path)
        }
        return try FileLock.withLock(folder.appendingPathComponent(".config.lock").path) {
            var config = try load(path, environment: environment)
            let before = config.lines
            let result = try body(&config)
            if config.lines != before { try config.save() }
            return result
        }
    }
}
