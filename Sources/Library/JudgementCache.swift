import Foundation
import GlimtCore

/// Day judgements kept between runs (`<library>/judgements.sqlite`), so that a decade's `days`,
/// `film` or `review` re-judges only the days whose inputs changed. It is a cache, and nothing
/// else: each entry is filed under the `scope` it was judged in (the program, the people and
/// their references, the person judged, the rules) and carries the `key` of its day's inputs (its
/// videos' rows and the person's choices for it); an entry whose key differs is judged again.
/// The library's store is never written by it, and a cache that cannot be opened, read or
/// written is passed over: every result is then judged afresh, as before there was one.
public final class JudgementCache: @unchecked Sendable {
    public static let fileName = "judgements.sqlite"
    /// Scopes kept: a person's days, another person's, everyone's, a film of longer clips...
    /// Judging in more than these drops the least recently used.
    static let scopesKept = 8

    private let db: Database
    public let path: String

    /// The cache of the library in `folder`, made when missing; nil when it cannot be used (a
    /// read-only folder, a file there that is not this cache: it is left as it is).
    public init?(library folder: URL) {
        path = folder.appendingPathComponent(Self.fileName).path
        if let status = try? FileStatus(path), status.kind != .file || (status.size > 0 && !Self.isSQLite(path)) { return nil }
        guard let db = try? Database(path: path, busyTimeoutMilliseconds: 2_000) else { return nil }
        self.db = db
        do {
            // A lost write costs a judgement made again, not the file: NORMAL keeps WAL's pages whole.
            try db.execute("PRAGMA synchronous = NORMAL")
            let version = try db.rows("PRAGMA user_version") { $0.int(0) }.first ?? 0
            if version != Self.version {
                // Version 0 is a new file, unless it holds tables: then it is not this cache.
                let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) }
                guard version != 0 || tables.isEmpty else { return nil }
                try db.transaction {
                    try db.execute("DROP TABLE IF EXISTS judged; DROP TABLE IF EXISTS scopes")
                    try db.execute(
                        """
                        CREATE TABLE judged (scope TEXT NOT NULL, day TEXT NOT NULL, key TEXT NOT NULL, report BLOB NOT NULL,
                                             UNIQUE (scope, day));
                        CREATE TABLE scopes (scope TEXT PRIMARY KEY, used REAL NOT NULL);
                        PRAGMA user_version = \(Self.version)
                        """)
                }
            }
        } catch {
            return nil
        }
    }

    /// The cache's layout; another is dropped and made again (it holds nothing that is not made again).
    static let version = 2

    private static func isSQLite(_ path: String) -> Bool {
        FileName.prefix(of: path, count: 16) == Array("SQLite format 3\0".utf8)
    }

    public struct Entry: Sendable {
        public var key: String
        public var report: [UInt8]

        public init(key: String, report: [UInt8]) {
            self.key = key
            self.report = report
        }
    }

    /// The entries of `scope` for the days in [from, to]; none when the cache cannot be read.
    public func entries(scope: String, from: String, to: String) -> [String: Entry] {
        var found: [String: Entry] = [:]
        _ = try? db.rows("SELECT day, key, report FROM judged WHERE scope = ? AND day >= ? AND day <= ?", [.of(scope), .of(from), .of(to)]) {
            found[$0.text(0)] = Entry(key: $0.text(1), report: $0.blob(2))
        }
        return found
    }

    /// Keeps `entries` (day -> entry) under `scope`, replacing the days' earlier ones, and drops
    /// the scopes used longest ago beyond `scopesKept`. Silent when it cannot: the next run
    /// judges those days again.
    public func keep(_ entries: [(day: String, entry: Entry)], scope: String) {
        try? db.transaction {
            try db.run("INSERT OR REPLACE INTO scopes (scope, used) VALUES (?, ?)", [.of(scope), .of(Date().timeIntervalSince1970)])
            let insert = try db.prepare("INSERT OR REPLACE INTO judged (scope, day, key, report) VALUES (?, ?, ?, ?)")
            for (day, entry) in entries {
                try insert.bind([.of(scope), .of(day), .of(entry.key), .blob(entry.report)])
                while try insert.step() {}
            }
            try db.run(
                "DELETE FROM scopes WHERE scope NOT IN (SELECT scope FROM scopes ORDER BY used DESC LIMIT ?)", [.of(Self.scopesKept)])
            try db.run("DELETE FROM judged WHERE scope NOT IN (SELECT scope FROM scopes)")
        }
    }
}

extension LibraryStore {
    /// A day's stored videos as a judgement of it depends on them, without their frames: a
    /// `StableHash` of every column of their rows (a video analysed again, moved, re-dated or
    /// given other notes has another row), and their content keys (the choices that touch them).
    public struct DayStamp: Sendable {
        public var rows: String
        public var contentKeys: [String]
    }

    /// The stamp of each day with videos in [from, to].
    public func dayStamps(from: String, to: String) throws -> [String: DayStamp] {
        try locked {
            let s = try db.prepare("SELECT * FROM videos WHERE day >= ? AND day <= ? ORDER BY day, path")
            try s.bind([.of(from), .of(to)])
            var stamps: [String: DayStamp] = [:]
            var day = "", hash = StableHash(), keys: [String] = []
            func close() { if !day.isEmpty { stamps[day] = DayStamp(rows: hash.hex, contentKeys: keys) } }
            let dayColumn = try s.column(named: "day"), keyColumn = try s.column(named: "content_key")
            while try s.step() {
                let d = s.text(dayColumn)
                if d != day {
                    close()
                    (day, hash, keys) = (d, StableHash(), [])
                }
                keys.append(s.text(keyColumn))
                s.hashRow(into: &hash)
            }
            close()
            return stamps
        }
    }
}
