import Foundation
import GlimtCore

/// What a scan (or a merge) did, kept in the store for `glimt-pure status`: when it ran, over
/// what, how many videos it found and analysed, whether it was stopped, and every file that
/// failed or was left out, with its reason. Only the last `ScanHistory.kept` are kept: this is a
/// log for a person to read, not a record of the analysis (which the videos' rows are).
public struct ScanRecord: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable { case scan, merge }

    /// A file the scan said something of.
    public struct File: Codable, Equatable, Sendable {
        /// `failed` (could not be used), `skipped` (a film glimt made), `duplicate` (the same
        /// content as a stored video), `note` (stored, with something to say).
        public var outcome: String
        public var path: String
        public var reason: String

        public init(outcome: String, path: String, reason: String) {
            self.outcome = outcome
            self.path = path
            self.reason = reason
        }
    }

    public var kind: Kind
    public var started: Date
    /// Nil while it runs, or when it never finished (killed, a crash, a power cut).
    public var finished: Date?
    /// The folders and files scanned, or the library merged.
    public var inputs: [String]
    /// `K/N` for a scan of one shard.
    public var shard: String?
    public var found = 0
    /// Videos analysed (for a merge: added).
    public var analysed = 0
    public var unchanged = 0
    /// Stopped by Ctrl-C or SIGTERM, keeping what it had finished.
    public var stopped = false
    public var files: [File] = []

    public init(kind: Kind, started: Date, inputs: [String], shard: String? = nil) {
        self.kind = kind
        self.started = started
        self.inputs = inputs
        self.shard = shard
    }
}

public enum ScanHistory {
    /// Records kept; older ones go as new ones start.
    public static let kept = 10
}

extension LibraryStore {
    /// Records the start of a scan or merge; its id, for `finish`.
    public func begin(_ record: ScanRecord) throws -> Int64 {
        try locked {
            try db.transaction {
                try db.run(
                    "INSERT INTO scans (kind, started, inputs, shard) VALUES (?, ?, ?, ?)",
                    [
                        .of(record.kind.rawValue), .of(record.started.timeIntervalSince1970), .of(record.inputs.joined(separator: "\n")),
                        .of(record.shard),
                    ])
                let id = db.lastInsertedRow
                try db.run("DELETE FROM scans WHERE id NOT IN (SELECT id FROM scans ORDER BY id DESC LIMIT ?)", [.of(ScanHistory.kept)])
                return id
            }
        }
    }

    /// Records how scan `id` ended.
    public func finish(_ id: Int64, _ record: ScanRecord) throws {
        try locked {
            try db.transaction {
                try db.run(
                    "UPDATE scans SET finished = ?, found = ?, analysed = ?, unchanged = ?, stopped = ? WHERE id = ?",
                    [
                        .of((record.finished ?? Date()).timeIntervalSince1970), .of(record.found), .of(record.analysed), .of(record.unchanged),
                        .of(record.stopped), .int(id),
                    ])
                try db.run("DELETE FROM scan_files WHERE scan_id = ?", [.int(id)])
                let insert = try db.prepare("INSERT INTO scan_files (scan_id, path, outcome, reason) VALUES (?, ?, ?, ?)")
                for f in record.files {
                    try insert.bind([.int(id), .of(f.path), .of(f.outcome), .of(f.reason)])
                    while try insert.step() {}
                }
            }
        }
    }

    /// The latest records, newest first (`kind`: of that kind only).
    public func history(kind: ScanRecord.Kind? = nil, limit: Int = ScanHistory.kept) throws -> [ScanRecord] {
        try locked {
            let rows = try db.rows(
                """
                SELECT id, kind, started, finished, inputs, shard, found, analysed, unchanged, stopped FROM scans
                WHERE ? IS NULL OR kind = ? ORDER BY id DESC LIMIT ?
                """, [.of(kind?.rawValue), .of(kind?.rawValue), .of(limit)]
            ) { s -> (Int64, ScanRecord) in
                var r = ScanRecord(
                    kind: ScanRecord.Kind(rawValue: s.text(1)) ?? .scan, started: Date(timeIntervalSince1970: s.double(2)),
                    inputs: s.text(4).split(separator: "\n").map(String.init), shard: s.optionalText(5))
                r.finished = s.optionalDouble(3).map { Date(timeIntervalSince1970: $0) }
                (r.found, r.analysed, r.unchanged, r.stopped) = (s.int(6), s.int(7), s.int(8), s.int(9) != 0)
                return (Int64(s.int(0)), r)
            }
            return try rows.map { id, record in
                var r = record
                r.files = try db.rows("SELECT outcome, path, reason FROM scan_files WHERE scan_id = ? ORDER BY rowid", [.int(id)]) {
                    ScanRecord.File(outcome: $0.text(0), path: $0.text(1), reason: $0.text(2))
                }
                return r
            }
        }
    }
}
