import Foundation
import GlimtCore
import Library

/// `glimt-pure merge OTHER`: another library's analyses (its videos with their frames and
/// faces, how each was observed, its notes) brought into this one in one transaction, for a
/// library split across machines: N workers each scan one shard (`scan --shard K/N`) into a
/// library of their own, and the libraries are merged. Videos are recognised by content, so a
/// video in both is kept once and merging the same library again changes nothing. The other
/// library's references, pins and exclusions stay out unless asked for (`choices`); it is read
/// only, never written.
public enum LibraryMerge {
    /// `--path-map OLD=NEW`: the other library's paths under OLD are under NEW here (the same NAS
    /// folder mounted at /mnt/nas on one machine and /Volumes/nas on another).
    public struct PathMap: Sendable, Equatable {
        public let old: String
        public let new: String

        /// `OLD=NEW`, both absolute; nil for anything else.
        public init?(_ text: String) {
            guard let eq = text.firstIndex(of: "=") else { return nil }
            let old = String(text[..<eq]), new = String(text[text.index(after: eq)...])
            guard old.hasPrefix("/"), new.hasPrefix("/") else { return nil }
            self.old = URL(fileURLWithPath: old).standardizedFileURL.path
            self.new = URL(fileURLWithPath: new).standardizedFileURL.path
        }

        /// `path` under NEW, when it is OLD or under it; nil otherwise.
        public func apply(_ path: String) -> String? {
            if path == old { return new }
            let folder = old == "/" ? "/" : old + "/"
            guard path.hasPrefix(folder) else { return nil }
            return (new == "/" ? "/" : new + "/") + path.dropFirst(folder.count)
        }
    }

    /// Merges `other` into `library` (created when missing, as by a scan). The first map that
    /// applies to a path (the longest OLD first) rewrites it. `waiting` hears once that a scan
    /// holds `library`: the merge then waits for it.
    public static func run(
        _ other: URL, into library: URL, pathMaps: [PathMap] = [], choices: Bool = false,
        waiting: (() -> Void)? = nil
    ) throws -> LibraryStore.MergeSummary {
        let theirs = try LibraryStore(readingOnly: other)
        let a = try? FileStatus(library.appendingPathComponent("library.sqlite").path), b = try? FileStatus(theirs.databasePath)
        if library.standardizedFileURL.path == other.standardizedFileURL.path || (a != nil && a?.device == b?.device && a?.inode == b?.inode) {
            throw GlimtError("is the library being merged into; name another library to merge", path: other.path)
        }
        let store = try LibraryStore(library: library)
        let maps = pathMaps.sorted { $0.old.count > $1.old.count }
        // Their people are this library's people of the same name; no one and everyone are theirs too.
        var people = [LibraryStore.noOne: LibraryStore.noOne, LibraryStore.everyone: LibraryStore.everyone]
        if choices {
            let here = try ReferenceStore(library: library).people()
            for p in try ReferenceStore(library: other).people() {
                if let same = here.first(where: { $0.name.lowercased() == p.name.lowercased() }) { people[p.id] = same.id }
            }
        }
        return try FileLock.withLock(store.scanLockPath, whileWaiting: waiting) {
            // The merge and its record are one transaction: 'status' says a merge exactly when
            // its videos are in, whenever the run is killed.
            try store.inOneTransaction {
                let started = Date()
                let summary = try store.merge(
                    from: theirs, mapPath: { path in maps.lazy.compactMap { $0.apply(path) }.first },
                    fileNow: { path in (try? FileStatus(path)).map { ($0.size, $0.modified.timeIntervalSince1970) } },
                    choices: choices, people: people)
                // Recorded for 'status' when it changed something: merging again, which changes
                // nothing, leaves the store as it was.
                if summary.changedAnything {
                    var record = ScanRecord(kind: .merge, started: started, inputs: [other.path])
                    let id = try store.begin(record)
                    record.finished = Date()
                    (record.found, record.analysed, record.unchanged) = (
                        summary.added + summary.alreadyHere + summary.leftOut.count, summary.added, summary.alreadyHere
                    )
                    record.files = summary.leftOut.map { ScanRecord.File(outcome: "left out", path: $0.path, reason: $0.reason) }
                    try store.finish(id, record)
                }
                return summary
            }
        }
    }
}
