import Foundation
import GlimtCore
import Library

/// The folders a library watches (`glimt-pure folders add|remove|list`): what `scan` scans when
/// it is given none, what the daily timer's scan covers, and where `status` looks for what is
/// new. Kept in the person's settings (`ConfigFile`), not in a library.
public enum WatchedFolders {
    /// A watched folder and whether it is there now (a NAS not mounted, a card taken out).
    public struct Folder: Codable, Sendable {
        public var path: String
        public var present: Bool
    }

    public static func list(config: String) throws -> [Folder] {
        try ConfigFile.load(config).folders.map { Folder(path: $0, present: (try? FileStatus($0))?.kind == .folder) }
    }

    /// Watches `folder` (a folder that is there now); its absolute path, and false when it was
    /// watched already.
    public static func add(_ folder: String, config: String) throws -> (path: String, added: Bool) {
        let path = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.path
        let status: FileStatus
        do { status = try FileStatus(path) } catch let e as GlimtError { throw e.at(path) }
        guard status.kind == .folder else { throw GlimtError("is not a folder (watch the folder it is in)", path: path) }
        return (path, try ConfigFile.change(config) { $0.add(path) })
    }

    /// Stops watching `folder` (there or not); its absolute path. Throws when it was not watched.
    public static func remove(_ folder: String, config: String) throws -> String {
        let path = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL.path
        // Looked at first, so that removing what is not there creates no settings.
        guard try ConfigFile.load(config).folders.contains(path), try ConfigFile.change(config, { $0.remove(path) }) else {
            throw GlimtError("is not a watched folder (see: glimt-pure folders list)", path: path)
        }
        return path
    }
}
