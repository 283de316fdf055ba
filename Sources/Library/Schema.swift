import Foundation
import GlimtCore

/// The library database's schema, one migration per version (SQLite's `user_version` says which
/// the file has). A store from an older glimt is brought up to date in one transaction; one
/// from a newer glimt, or a database that is not a glimt library, is refused, never misread.
enum Schema {
    /// Each entry takes the store from version `index` to `index + 1`.
    static let migrations: [String] = [
        // 1: videos, their sampled frames and every face with its embedding.
        """
        CREATE TABLE videos (
            id INTEGER PRIMARY KEY,
            content_key TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL,
            modified REAL NOT NULL,
            day TEXT NOT NULL,
            capture_time TEXT,
            capture_instant REAL,
            date_source TEXT NOT NULL,
            duration REAL NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            rotation INTEGER NOT NULL,
            codec TEXT NOT NULL,
            hdr INTEGER NOT NULL,
            analysis_version INTEGER NOT NULL
        );
        CREATE INDEX videos_by_day ON videos (day);
        CREATE TABLE frames (
            video_id INTEGER NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            time REAL NOT NULL,
            sharpness REAL NOT NULL,
            looks REAL NOT NULL,
            exposure REAL NOT NULL,
            contrast REAL NOT NULL,
            colourfulness REAL NOT NULL,
            cleanliness REAL NOT NULL,
            rejected TEXT,
            PRIMARY KEY (video_id, idx)
        ) WITHOUT ROWID;
        CREATE TABLE faces (
            video_id INTEGER NOT NULL,
            frame_idx INTEGER NOT NULL,
            idx INTEGER NOT NULL,
            x REAL NOT NULL, y REAL NOT NULL, width REAL NOT NULL, height REAL NOT NULL,
            score REAL NOT NULL,
            quality REAL NOT NULL,
            embedding BLOB,
            PRIMARY KEY (video_id, frame_idx, idx),
            FOREIGN KEY (video_id, frame_idx) REFERENCES frames (video_id, idx) ON DELETE CASCADE
        ) WITHOUT ROWID;
        """,
        // 2: the person's choices, kept by day and by content (they survive moves and rescans).
        """
        CREATE TABLE pins (day TEXT PRIMARY KEY, content_key TEXT NOT NULL, start REAL NOT NULL);
        CREATE TABLE excluded_days (day TEXT PRIMARY KEY);
        CREATE TABLE excluded_videos (content_key TEXT PRIMARY KEY, path TEXT NOT NULL);
        """,
        // 3: how each video was recorded (Live Photo, screen recording, slow motion...), as the
        // JSON of its `RecordingFacts`; NULL for rows from before, which are analysed again.
        """
        ALTER TABLE videos ADD COLUMN recording TEXT;
        """,
        // 4: how each video was observed, beside its analysis version. Stores before this were
        // scanned without a record of it; they are taken as sampled at version 3's defaults (8
        // frames a second, 640 px), and an empty time zone has the next scan date them again.
        """
        ALTER TABLE videos ADD COLUMN sample_rate REAL NOT NULL DEFAULT 8;
        ALTER TABLE videos ADD COLUMN analysis_side INTEGER NOT NULL DEFAULT 640;
        ALTER TABLE videos ADD COLUMN time_zone TEXT NOT NULL DEFAULT '';
        """,
        // 5: days a person gave videos by hand (a copy with no date of its own), by content, so
        // rescans, moves and a new analysis keep them.
        """
        CREATE TABLE set_dates (content_key TEXT PRIMARY KEY, day TEXT NOT NULL, time TEXT, path TEXT NOT NULL);
        """,
        // 6: pins and excluded days belong to a person (their id in references.json; 0: the
        // days judged without references). A store from before gives them to its references'
        // person, or to no one when it had none (see `migrate`). Excluded videos stay everyone's.
        """
        CREATE TABLE pins6 (person_id INTEGER NOT NULL, day TEXT NOT NULL, content_key TEXT NOT NULL, start REAL NOT NULL, PRIMARY KEY (person_id, day));
        INSERT INTO pins6 SELECT 0, day, content_key, start FROM pins;
        DROP TABLE pins;
        ALTER TABLE pins6 RENAME TO pins;
        CREATE TABLE excluded_days6 (person_id INTEGER NOT NULL, day TEXT NOT NULL, PRIMARY KEY (person_id, day));
        INSERT INTO excluded_days6 SELECT 0, day FROM excluded_days;
        DROP TABLE excluded_days;
        ALTER TABLE excluded_days6 RENAME TO excluded_days;
        """,
        // 7: what the person should hear of each video (a capture date passed over, the file cut
        // short), one line each, so that every command reading the library can say it.
        """
        ALTER TABLE videos ADD COLUMN notes TEXT NOT NULL DEFAULT '';
        """,
        // 8: a followed face borrows the embedding of face `borrows_face` of the frame
        // `borrows_back` frames earlier (its own embedding is then NULL), whose crop it resembled
        // at `likeness`; `every_face` says a video's faces were not followed. Rows from before
        // each have an embedding of their own.
        """
        ALTER TABLE videos ADD COLUMN every_face INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE faces ADD COLUMN borrows_back INTEGER;
        ALTER TABLE faces ADD COLUMN borrows_face INTEGER;
        ALTER TABLE faces ADD COLUMN likeness REAL;
        """,
        // 9: what the last scans (and merges) did, for 'glimt-pure status': when, of what, how
        // many, and each file that failed or was left out. History, not analysis: no dump, no
        // merge carries it.
        """
        CREATE TABLE scans (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            started REAL NOT NULL,
            finished REAL,
            inputs TEXT NOT NULL,
            shard TEXT,
            found INTEGER NOT NULL DEFAULT 0,
            analysed INTEGER NOT NULL DEFAULT 0,
            unchanged INTEGER NOT NULL DEFAULT 0,
            stopped INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE scan_files (
            scan_id INTEGER NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            outcome TEXT NOT NULL,
            reason TEXT NOT NULL
        );
        CREATE INDEX scan_files_by_scan ON scan_files (scan_id);
        """,
        // 10: a long video looked at by its keyframes first keeps the stretches sampled at the
        // full rate ("start end" pairs, ";" between them); its frames outside them are the
        // keyframes looked at. NULL: every second was sampled, as in every store from before.
        """
        ALTER TABLE videos ADD COLUMN stretches TEXT;
        """,
        // 11: what a whole moment needs at judge time (see `Moment`): where the sound has speech
        // (its runs written as `stretches` are; NULL: no sound, or scanned before), each frame's
        // change from the sample before it (scene cuts) and each face's eye openness (NULL: not
        // measured).
        """
        ALTER TABLE videos ADD COLUMN speech TEXT;
        ALTER TABLE frames ADD COLUMN shot_change REAL;
        ALTER TABLE faces ADD COLUMN eyes REAL;
        """,
    ]

    /// The person the choices of a store from before people existed (version 5 and older) become.
    static let choicesOwnedFrom = 6

    static var version: Int { migrations.count }

    /// Refuses a file that is not a store this glimt may write, before anything opens it for
    /// writing: opened to write, SQLite would first make it a WAL database (or replay a stale WAL
    /// beside it), and a foreign or newer file must stay byte for byte as it was. A missing file
    /// is a new store, and so is an empty one: that is what SQLite leaves when a store's creation
    /// stops before its first write.
    static func checkBeforeWriting(_ path: String) throws {
        guard let status = try? FileStatus(path), status.kind == .file, status.size > 0 else { return }
        let magic = Array("SQLite format 3\0".utf8)
        let header = FileName.prefix(of: path, count: 20) ?? []
        guard header.starts(with: magic) else {
            throw GlimtError("not a glimt library database (not an SQLite file); move it away to start afresh", path: path)
        }
        // A store in use (a scan writing it now, or one stopped midway) keeps its latest commits in
        // its WAL, and a checkpoint may be copying them into the file at this moment: the file
        // alone can then read as damaged. Such a store is read through its WAL, only reading.
        if isInUse(path, header: header), let db = try? Database(readingOnly: path),
            (try? db.rows("SELECT count(*) FROM sqlite_master") { $0.int(0) }) != nil
        {
            _ = try check(db)
            return
        }
        _ = try check(try Database(inspecting: path))
    }

    /// Whether the file at `path`, whose first bytes are `header`, is a database in WAL mode (its
    /// header's read and write versions 2) with a WAL beside it that SQLite wrote (its magic
    /// number), and the WAL's index too.
    private static func isInUse(_ path: String, header: [UInt8]) -> Bool {
        guard header.count == 20, header[18] == 2, header[19] == 2,
            let wal = FileName.prefix(of: path + "-wal", count: 4), [[0x37, 0x7f, 0x06, 0x82], [0x37, 0x7f, 0x06, 0x83]].contains(wal)
        else { return false }
        return (try? FileStatus(path + "-shm"))?.kind == .file
    }

    /// The store's version, once it is one this glimt reads: an older one is brought up to date,
    /// a newer one, a number glimt never wrote (negative), or tables that are not those of the
    /// version it claims are refused.
    private static func check(_ db: Database) throws -> Int {
        let found = try db.rows("PRAGMA user_version") { $0.int(0) }.first ?? 0
        guard found >= 0 else {
            throw GlimtError(
                "store version \(found) is not one glimt writes (its versions are 1 to \(version)): not a glimt library database, or a damaged one; move it away to start afresh",
                path: db.path)
        }
        guard found <= version else {
            throw GlimtError(
                "this library was written by a newer glimt-pure (store version \(found); this one reads up to \(version)); use that version or a new --library",
                path: db.path)
        }
        let tables = try shape(of: db)
        if found == 0 {
            guard tables.isEmpty else {
                throw GlimtError(
                    "not a glimt library database (it holds other tables: \(tables.keys.sorted().prefix(3).joined(separator: ", ")))", path: db.path)
            }
            return found
        }
        let expected = try shape(ofVersion: found)
        if tables != expected {
            throw GlimtError(
                "not a glimt library database (its tables are not those of glimt's store version \(found): \(difference(tables, from: expected))); move it away to start afresh",
                path: db.path)
        }
        return found
    }

    /// Each table's columns, as a store holds them (SQLite's own tables left out).
    private static func shape(of db: Database) throws -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for table in try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", [], { $0.text(0) })
        {
            out[table] = Set(try db.rows("SELECT name FROM pragma_table_info(?)", [.of(table)]) { $0.text(0) })
        }
        return out
    }

    /// The tables a store of `version` has: the migrations up to it, run on an empty database.
    private static func shape(ofVersion version: Int) throws -> [String: Set<String>] {
        let db = try Database(path: ":memory:")
        for step in 0..<version { try db.execute(migrations[step]) }
        return try shape(of: db)
    }

    /// The first thing that differs, in a few words: "it holds recipes", "it lacks the table
    /// pins", "its table videos lacks stretches".
    private static func difference(_ found: [String: Set<String>], from expected: [String: Set<String>]) -> String {
        let extra = found.keys.filter { expected[$0] == nil }.sorted(), missing = expected.keys.filter { found[$0] == nil }.sorted()
        if !extra.isEmpty {
            return "it holds \(extra.prefix(3).joined(separator: ", "))"
                + (missing.isEmpty ? "" : " and lacks \(missing.prefix(3).joined(separator: ", "))")
        }
        if !missing.isEmpty { return "it lacks the table\(missing.count == 1 ? "" : "s") \(missing.prefix(3).joined(separator: ", "))" }
        for table in expected.keys.sorted() where found[table] != expected[table] {
            let lacks = expected[table]!.subtracting(found[table]!).sorted(), holds = found[table]!.subtracting(expected[table]!).sorted()
            return "its table \(table) "
                + (lacks.isEmpty ? "holds \(holds.prefix(3).joined(separator: ", "))" : "lacks \(lacks.prefix(3).joined(separator: ", "))")
        }
        return "they differ"
    }

    /// `legacyOwner`: the person id an older store's pins and excluded days become (0: no one).
    static func migrate(_ db: Database, legacyOwner: Int = 0) throws {
        try db.transaction {
            let found = try check(db)
            if found == version { return }
            for step in found..<version {
                try db.execute(migrations[step])
                if step + 1 == choicesOwnedFrom && legacyOwner != 0 {
                    try db.run("UPDATE pins SET person_id = ?", [.of(legacyOwner)])
                    try db.run("UPDATE excluded_days SET person_id = ?", [.of(legacyOwner)])
                }
            }
            try db.execute("PRAGMA user_version = \(version)")
        }
    }
}
