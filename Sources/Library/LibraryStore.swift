import Analysis
import Foundation
import GlimtCore
import Imaging

/// The library's database (`<library>/library.sqlite`): every analysed video with its frames
/// and faces, and the person's choices (pinned seconds, excluded days and videos). SQLite in WAL
/// mode: a scan commits one video at a time, so a kill loses at most the video in progress,
/// and other commands read while a scan writes.
public final class LibraryStore: @unchecked Sendable {
    public let folder: URL
    public var databasePath: String { folder.appendingPathComponent("library.sqlite").path }
    let db: Database
    /// Recursive: a change made of several (`inOneTransaction`) holds it across them.
    private let lock = NSRecursiveLock()

    /// Opens the library in `folder`, bringing an older store up to date. `creating` makes the
    /// folder and the store when they are missing, for the commands that write; the others
    /// only read, and a mistyped `--library` is said to them rather than made.
    public init(library folder: URL, creating: Bool = true) throws {
        self.folder = folder
        let path = folder.appendingPathComponent("library.sqlite").path
        if creating {
            try LibraryFolder.make(folder)
        } else {
            try LibraryFolder.existing(folder, holding: "library.sqlite", madeBy: "scan a folder into it first: glimt-pure scan FOLDER")
        }
        try Schema.checkBeforeWriting(path)
        db = try Database(path: path)
        // A store from before people existed gives its pins and excluded days to the person its
        // references became (see `ReferenceStore`), or to no one.
        try Schema.migrate(db, legacyOwner: (try? ReferenceStore(library: folder).people().first?.id) ?? 0)
    }

    /// A store over a database already opened (another library, read only: see `StoreMerge`).
    init(folder: URL, database: Database) {
        self.folder = folder
        db = database
    }

    func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` with a connection of its own that only reads, so that days judged on several
    /// threads read the store side by side (WAL lets readers run together) rather than in turn
    /// under `lock`. While a change is in progress on the store's own connection, which only it
    /// sees, `body` reads through that one, under the lock; so it does when no other connection
    /// can be opened (the store reads as it did before there were several).
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        lock.lock()
        guard !db.inTransaction, let reader = readersLock.withLock({ readers.popLast() }) ?? (try? Database(readingOnly: db.path)) else {
            defer { lock.unlock() }
            return try body(db)
        }
        lock.unlock()
        defer { readersLock.withLock { readers.append(reader) } }
        return try body(reader)
    }

    /// The connections of `reading`, each used by one thread at a time.
    private var readers: [Database] = []
    private let readersLock = NSLock()

    /// The readers close before the writer (`db`), which would otherwise go first: only the last
    /// connection to close copies the WAL into the file and removes it, and a read-only one cannot.
    deinit { readersLock.withLock { readers.removeAll() } }

    /// Runs `body`, whose changes to the store are then all kept or, when it throws or the
    /// process dies before it ends, none: a choices file applied, a merge with its record.
    public func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        try locked { try db.transaction(body) }
    }

    // MARK: Videos

    /// Where a stored video is and how it looked when analysed.
    public struct Identity: Equatable, Sendable {
        public var contentKey: String
        public var path: String
        public var size: Int64
        public var modified: Double
        /// How it was observed (see `ObservationMethod`).
        public var method: ObservationMethod
    }

    public func identity(path: String) throws -> Identity? {
        try locked { try db.rows("SELECT \(Self.identityColumns) FROM videos WHERE path = ?", [.of(path)], Self.identity).first }
    }

    public func identity(contentKey: String) throws -> Identity? {
        try locked { try db.rows("SELECT \(Self.identityColumns) FROM videos WHERE content_key = ?", [.of(contentKey)], Self.identity).first }
    }

    private static let identityColumns =
        "content_key, path, size, modified, analysis_version, sample_rate, analysis_side, time_zone, every_face, stretches IS NOT NULL"

    private static func identity(_ s: Database.Statement) -> Identity {
        Identity(contentKey: s.text(0), path: s.text(1), size: Int64(s.int(2)), modified: s.double(3), method: method(s, from: 4))
    }

    /// The six method columns, from `first` on, in `identityColumns`' order.
    private static func method(_ s: Database.Statement, from first: Int32) -> ObservationMethod {
        ObservationMethod(
            version: s.int(first), sampleRate: s.double(first + 1), analysisSide: s.int(first + 2), timeZone: s.text(first + 3),
            everyFace: s.int(first + 4) != 0, keyframeLook: s.int(first + 5) != 0)
    }

    /// Time ranges as stored (`ObservedVideo.stretches`, `SpeechMap.runs`): "start end" pairs,
    /// ";" between them, each number as Swift writes a Double (read back to the same bits).
    static func rangesText(_ ranges: [Range<Double>]?) -> String? {
        ranges.map { $0.map { "\($0.lowerBound) \($0.upperBound)" }.joined(separator: ";") }
    }

    /// Nil for NULL, and for text that is not pairs of ascending numbers (a damaged row is judged
    /// as sampled whole, or as heard without speech, rather than misread).
    static func ranges(_ text: String?) -> [Range<Double>]? {
        guard let text else { return nil }
        var out: [Range<Double>] = []
        for pair in text.split(separator: ";") {
            let n = pair.split(separator: " ").compactMap { Double($0) }
            guard n.count == 2, n[0] < n[1] else { return nil }
            out.append(n[0]..<n[1])
        }
        return out
    }

    /// A stored video found under another name (moved, renamed): nothing to analyse again.
    public func moved(contentKey: String, to path: String, size: Int64, modified: Double) throws {
        try locked {
            try db.transaction {
                // Whatever was stored under the new name before is replaced by what is there now.
                try db.run("DELETE FROM videos WHERE path = ? AND content_key <> ?", [.of(path), .of(contentKey)])
                try db.run(
                    "UPDATE videos SET path = ?, size = ?, modified = ? WHERE content_key = ?",
                    [.of(path), .int(size), .of(modified), .of(contentKey)])
            }
        }
    }

    /// A stored video dated again (read in another time zone); its frames stand. Returns whether
    /// its day changed.
    @discardableResult
    public func redate(contentKey: String, capture: CaptureDate, timeZone: String) throws -> Bool {
        try locked {
            try db.transaction {
                let before = try db.rows("SELECT day FROM videos WHERE content_key = ?", [.of(contentKey)]) { $0.text(0) }.first
                try db.run(
                    "UPDATE videos SET day = ?, capture_time = ?, capture_instant = ?, date_source = ?, time_zone = ? WHERE content_key = ?",
                    [
                        .of(capture.day), .of(capture.time), .of(capture.instant?.timeIntervalSince1970), .of(capture.source.rawValue),
                        .of(timeZone), .of(contentKey),
                    ])
                // A day set by hand stays.
                try db.run(Self.applySetDate, [.of(contentKey)])
                let after = try db.rows("SELECT day FROM videos WHERE content_key = ?", [.of(contentKey)]) { $0.text(0) }.first
                return before != nil && before != after
            }
        }
    }

    /// Puts a video's day set by hand, if it has one, over its stored date.
    private static let applySetDate = """
        UPDATE videos SET (day, capture_time, capture_instant, date_source) =
            (SELECT day, time, NULL, '\(CaptureDate.Source.setByHand.rawValue)' FROM set_dates WHERE set_dates.content_key = videos.content_key)
        WHERE content_key = ? AND EXISTS (SELECT 1 FROM set_dates WHERE set_dates.content_key = videos.content_key)
        """

    /// Gives the video of `contentKey` the day (and time) a person says it was taken: kept by
    /// content, so rescans and moves keep it. Returns the days whose pins on it were dropped: a
    /// pin is a second of its day.
    @discardableResult
    public func setDate(contentKey: String, path: String, day: String, time: String?) throws -> [String] {
        try locked {
            try db.transaction {
                try db.run(
                    "INSERT OR REPLACE INTO set_dates (content_key, day, time, path) VALUES (?, ?, ?, ?)",
                    [.of(contentKey), .of(day), .of(time), .of(path)])
                try db.run(Self.applySetDate, [.of(contentKey)])
                let dropped = try db.rows(
                    "SELECT DISTINCT day FROM pins WHERE content_key = ? AND day <> ? ORDER BY day", [.of(contentKey), .of(day)]
                ) { $0.text(0) }
                try db.run("DELETE FROM pins WHERE content_key = ? AND day <> ?", [.of(contentKey), .of(day)])
                return dropped
            }
        }
    }

    /// Forgets a day set by hand (false when there was none); the caller dates the video again
    /// from its metadata with `redate`.
    public func clearDate(contentKey: String) throws -> Bool {
        try locked {
            try db.transaction {
                let had = try db.rows("SELECT 1 FROM set_dates WHERE content_key = ?", [.of(contentKey)]) { _ in true }.first ?? false
                try db.run("DELETE FROM set_dates WHERE content_key = ?", [.of(contentKey)])
                return had
            }
        }
    }

    /// Sorted keys: the same facts are always the same text.
    private static let factsEncoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return e
    }()

    /// Stores one analysed video in one transaction, replacing any earlier result for its path
    /// (an edited file) or its content (the same file analysed again).
    public func save(_ v: ObservedVideo) throws {
        try locked {
            try db.transaction {
                try db.run("DELETE FROM videos WHERE path = ? OR content_key = ?", [.of(v.path), .of(v.contentKey)])
                try db.run(
                    """
                    INSERT INTO videos (content_key, path, size, modified, day, capture_time, capture_instant, date_source, duration,
                                        width, height, rotation, codec, hdr, recording, analysis_version, sample_rate, analysis_side, time_zone, notes,
                                        every_face, stretches, speech)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .of(v.contentKey), .of(v.path), .int(v.size), .of(v.modified), .of(v.capture.day), .of(v.capture.time),
                        .of(v.capture.instant?.timeIntervalSince1970), .of(v.capture.source.rawValue), .of(v.duration), .of(v.width),
                        .of(v.height), .of(v.rotation), .of(v.codec), .of(v.hdr),
                        .of(v.recording.flatMap { try? Self.factsEncoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) }),
                        .of(v.method.version), .of(v.method.sampleRate), .of(v.method.analysisSide), .of(v.method.timeZone),
                        .of(v.notes.joined(separator: "\n")), .of(v.method.everyFace), .of(Self.rangesText(v.stretches)),
                        .of(Self.rangesText(v.speech?.runs)),
                    ])
                let id = db.lastInsertedRow
                // A day the person gave this content stands over what its metadata says.
                try db.run(Self.applySetDate, [.of(v.contentKey)])
                let frame = try db.prepare(
                    """
                    INSERT INTO frames (video_id, idx, time, sharpness, looks, exposure, contrast, colourfulness, cleanliness, rejected, shot_change)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let face = try db.prepare(
                    """
                    INSERT INTO faces (video_id, frame_idx, idx, x, y, width, height, score, quality, embedding, borrows_back, borrows_face, likeness,
                                       eyes)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for (i, f) in v.frames.enumerated() {
                    let a = f.aesthetics
                    try frame.bind([
                        .int(id), .of(i), .of(f.time), .of(f.sharpness), .of(a.value), .of(a.exposure), .of(a.contrast),
                        .of(a.colourfulness), .of(a.cleanliness), .of(a.rejected), .of(f.shotChange),
                    ])
                    while try frame.step() {}
                    for (j, x) in f.faces.enumerated() {
                        // A borrowed embedding is its source's: the source's row holds it.
                        let own = x.borrowedFrom == nil ? x.embedding.map { Database.Value.blob(HalfFloats.encode($0.values)) } : nil
                        try face.bind([
                            .int(id), .of(i), .of(j), .of(x.box.x), .of(x.box.y), .of(x.box.width), .of(x.box.height), .of(x.score),
                            .of(x.quality), own ?? .null, .of(x.borrowedFrom?.framesBack), .of(x.borrowedFrom?.face), .of(x.borrowedFrom?.likeness),
                            .of(x.eyes),
                        ])
                        while try face.step() {}
                    }
                }
            }
        }
    }

    /// Drops a video (a file that is gone for good is not; only `forget` removes it).
    public func forget(contentKey: String) throws {
        try locked { try db.run("DELETE FROM videos WHERE content_key = ?", [.of(contentKey)]) }
    }

    /// The day a stored video is filed under.
    public func day(contentKey: String) throws -> String? {
        try locked { try db.rows("SELECT day FROM videos WHERE content_key = ?", [.of(contentKey)]) { $0.text(0) }.first }
    }

    /// The paths of stored videos of `size` bytes: the only ones a file of that size can be.
    public func paths(ofSize size: Int64) throws -> [String] {
        try locked { try db.rows("SELECT path FROM videos WHERE size = ?", [.int(size)]) { $0.text(0) } }
    }

    /// Held by a scan while it works on the library (two scans take turns).
    public var scanLockPath: String { folder.appendingPathComponent(".scan.lock").path }

    /// The store's own files: the database, its WAL and shared memory, a journal, the scan's
    /// lock, and the judgements kept beside it (see `JudgementCache`).
    public var files: [String] {
        let cache = folder.appendingPathComponent(JudgementCache.fileName).path
        return ["", "-wal", "-shm", "-journal"].flatMap { [databasePath + $0, cache + $0] } + [scanLockPath]
    }

    /// The days that have videos, in order, within [from, to] (either may be nil).
    public func days(from: String? = nil, to: String? = nil) throws -> [String] {
        try locked {
            try db.rows("SELECT DISTINCT day FROM videos WHERE day >= ? AND day <= ? ORDER BY day", [.of(from ?? "0000"), .of(to ?? "9999")]) {
                $0.text(0)
            }
        }
    }

    /// Every stored video of one day, with its frames and faces (one day at a time keeps memory
    /// bounded however large the library). The rows are read through a connection of the
    /// thread's own (`reading`), each face as plain numbers and the video's stored embeddings
    /// into one array of bytes; the faces are made, and their embeddings widened, checked and
    /// normalised, after the reading.
    public func videos(onDay day: String) throws -> [ObservedVideo] {
        let read: [(video: ObservedVideo, faces: [FaceRow], halves: [UInt8])] = try reading { db in
            let videos = try db.rows(
                """
                SELECT id, content_key, path, size, modified, day, capture_time, capture_instant, date_source, duration, width, height,
                       rotation, codec, hdr, recording, \(Self.identityColumns), notes, stretches, speech FROM videos WHERE day = ? ORDER BY path
                """, [.of(day)]
            ) { s -> (Int, ObservedVideo) in
                let capture = CaptureDate(
                    day: s.text(5), time: s.optionalText(6), instant: s.optionalDouble(7).map { Date(timeIntervalSince1970: $0) },
                    source: CaptureDate.Source(rawValue: s.text(8)) ?? .modificationTime)
                return (
                    s.int(0),
                    ObservedVideo(
                        contentKey: s.text(1), path: s.text(2), size: Int64(s.int(3)), modified: s.double(4), capture: capture,
                        duration: s.double(9), width: s.int(10), height: s.int(11), rotation: s.int(12), codec: s.text(13),
                        hdr: s.int(14) != 0,
                        recording: s.optionalText(15).flatMap { try? JSONDecoder().decode(RecordingFacts.self, from: Data($0.utf8)) },
                        method: Self.method(s, from: 20), frames: [], stretches: Self.ranges(s.optionalText(27)),
                        notes: s.text(26).split(separator: "\n").map(String.init), speech: Self.ranges(s.optionalText(28)).map(SpeechMap.init(runs:)))
                )
            }
            return try videos.map { id, video in
                var video = video
                video.frames = try db.rows(
                    """
                    SELECT time, sharpness, looks, exposure, contrast, colourfulness, cleanliness, rejected, shot_change
                    FROM frames WHERE video_id = ? ORDER BY idx
                    """, [.of(id)]
                ) { s in
                    ObservedFrame(
                        time: s.double(0),
                        aesthetics: Aesthetics(
                            value: s.float(2), exposure: s.float(3), contrast: s.float(4), colourfulness: s.float(5),
                            cleanliness: s.float(6), rejected: s.optionalText(7)),
                        sharpness: s.float(1), faces: [], shotChange: s.isNull(8) ? nil : s.float(8))
                }
                var halves: [UInt8] = []
                let faces = try db.rows(
                    """
                    SELECT frame_idx, x, y, width, height, score, quality, embedding, borrows_back, borrows_face, likeness, eyes
                    FROM faces WHERE video_id = ? ORDER BY frame_idx, idx
                    """, [.of(id)]
                ) { s in
                    FaceRow(
                        frame: s.int(0), box: Box(x: s.float(1), y: s.float(2), width: s.float(3), height: s.float(4)), score: s.float(5),
                        quality: s.float(6),
                        embedding: s.isNull(7)
                            ? nil
                            : s.withBlob(7) { b in
                                halves.append(contentsOf: b)
                                return (halves.count - b.count)..<halves.count
                            },
                        borrowsBack: s.isNull(8) ? nil : s.int(8), borrowsFace: s.int(9), likeness: s.float(10),
                        eyes: s.isNull(11) ? nil : s.float(11))
                }
                return (video, faces, halves)
            }
        }
        var videos: [ObservedVideo] = []
        for (video, faces, halves) in read {
            var video = video
            for r in faces where video.frames.indices.contains(r.frame) {
                video.frames[r.frame].faces.append(
                    ObservedFace(
                        box: r.box, score: r.score, quality: r.quality,
                        embedding: r.embedding.flatMap { at in
                            halves.withUnsafeBytes { try? Embedding(validatingHalves: UnsafeRawBufferPointer(rebasing: $0[at])) }
                        },
                        borrowedFrom: r.borrowsBack.map { BorrowedEmbedding(framesBack: $0, face: r.borrowsFace, likeness: r.likeness) },
                        eyes: r.eyes))
            }
            Self.fillBorrowed(&video.frames)
            videos.append(video)
        }
        return videos
    }

    /// A stored face as read: plain numbers (copied without counting references), its embedding
    /// a range of its video's stored bytes.
    private struct FaceRow {
        var frame: Int
        var box: Box
        var score, quality: Float
        var embedding: Range<Int>?
        var borrowsBack: Int?
        var borrowsFace: Int
        var likeness: Float
        var eyes: Float?
    }

    /// Gives each followed face its source's embedding (sources come earlier in the video). A
    /// pointer to nothing leaves the face without one, as a damaged embedding does.
    static func fillBorrowed(_ frames: inout [ObservedFrame]) {
        for f in frames.indices {
            for i in frames[f].faces.indices {
                guard let b = frames[f].faces[i].borrowedFrom else { continue }
                let s = f - b.framesBack
                frames[f].faces[i].embedding =
                    b.framesBack > 0 && frames.indices.contains(s) && frames[s].faces.indices.contains(b.face)
                        && !frames[s].faces[b.face].borrowed ? frames[s].faces[b.face].embedding : nil
            }
        }
    }

    /// Of the stored recordings, the photos (see `RecordingFacts.photo`).
    public func photoCount() throws -> Int {
        try locked { try db.rows("SELECT count(*) FROM videos WHERE recording LIKE '%\"photo\":true%'") { $0.int(0) }.first ?? 0 }
    }

    /// How many videos, frames and faces are stored.
    public func counts() throws -> (videos: Int, frames: Int, faces: Int) {
        try locked {
            let n = { (table: String) in try self.db.rows("SELECT count(*) FROM \(table)") { $0.int(0) }.first ?? 0 }
            return (try n("videos"), try n("frames"), try n("faces"))
        }
    }

    /// Everything stored about the videos, as canonical text (ordered by content, no row ids or
    /// times of writing): two stores hold the same results exactly when their dumps are equal.
    public func dump() throws -> String {
        try locked {
            var out: [String] = []
            let videos = try db.rows(
                """
                SELECT id, content_key, path, size, day, capture_time, date_source, duration, width, height, rotation, codec, hdr, analysis_version,
                       recording, sample_rate, analysis_side, time_zone, notes, every_face, stretches, speech
                FROM videos ORDER BY content_key
                """
            ) { s in (s.int(0), (1...21).map { s.text(Int32($0)) }.joined(separator: "|")) }
            for (id, line) in videos {
                out.append("video " + line)
                out += try db.rows(
                    """
                    SELECT idx, time, sharpness, looks, exposure, contrast, colourfulness, cleanliness, rejected, shot_change
                    FROM frames WHERE video_id = ? ORDER BY idx
                    """,
                    [.int(Int64(id))]
                ) { s in "  frame " + (0...9).map { s.text(Int32($0)) }.joined(separator: "|") }
                out += try db.rows(
                    """
                    SELECT frame_idx, idx, x, y, width, height, score, quality, hex(embedding), borrows_back, borrows_face, likeness, eyes
                    FROM faces WHERE video_id = ? ORDER BY frame_idx, idx
                    """, [.int(Int64(id))]
                ) { s in "  face " + (0...12).map { s.text(Int32($0)) }.joined(separator: "|") }
            }
            return out.joined(separator: "\n")
        }
    }

    // MARK: The person's choices

    /// One person's choices (pins and excluded days are theirs: 0 is the days judged without
    /// references), and the videos excluded for everyone.
    public struct Choices: Sendable {
        /// Day -> (content key of the video, start in seconds).
        public var pins: [String: (contentKey: String, start: Double)] = [:]
        public var excludedDays: Set<String> = []
        /// Content keys of excluded videos.
        public var excludedVideos: Set<String> = []
    }

    /// The person id of the days judged without references.
    public static let noOne = 0
    /// The person id of the family film's days (`film --everyone`).
    public static let everyone = -1

    public func choices(person: Int) throws -> Choices {
        try locked {
            var c = Choices()
            for (day, key, start) in try db.rows(
                "SELECT day, content_key, start FROM pins WHERE person_id = ?", [.of(person)],
                { ($0.text(0), $0.text(1), $0.double(2)) })
            {
                c.pins[day] = (key, start)
            }
            c.excludedDays = Set(try db.rows("SELECT day FROM excluded_days WHERE person_id = ?", [.of(person)]) { $0.text(0) })
            c.excludedVideos = Set(try db.rows("SELECT content_key FROM excluded_videos") { $0.text(0) })
            return c
        }
    }

    /// Pins a second of `day` for `person`, and brings the day back when they had excluded it
    /// (choosing a second on a day is wanting the day); true when it was excluded.
    @discardableResult
    public func pin(day: String, contentKey: String, start: Double, person: Int) throws -> Bool {
        try locked {
            try db.transaction {
                try db.run(
                    "INSERT OR REPLACE INTO pins (person_id, day, content_key, start) VALUES (?, ?, ?, ?)",
                    [.of(person), .of(day), .of(contentKey), .of(start)])
                let excluded =
                    try db.rows("SELECT 1 FROM excluded_days WHERE person_id = ? AND day = ?", [.of(person), .of(day)]) { _ in true }.first ?? false
                try db.run("DELETE FROM excluded_days WHERE person_id = ? AND day = ?", [.of(person), .of(day)])
                return excluded
            }
        }
    }

    public func unpin(day: String, person: Int) throws {
        try locked { try db.run("DELETE FROM pins WHERE day = ? AND person_id = ?", [.of(day), .of(person)]) }
    }

    public func setDay(_ day: String, excluded: Bool, person: Int) throws {
        try locked {
            try db.run(
                excluded
                    ? "INSERT OR IGNORE INTO excluded_days (person_id, day) VALUES (?, ?)"
                    : "DELETE FROM excluded_days WHERE person_id = ? AND day = ?",
                [.of(person), .of(day)])
        }
    }

    /// The person ids that have pins or excluded days (`noOne` and `everyone` among them).
    public func choiceOwners() throws -> Set<Int> {
        try locked { Set(try db.rows("SELECT person_id FROM pins UNION SELECT person_id FROM excluded_days") { $0.int(0) }) }
    }

    /// Forgets a person's pins and excluded days (the person is gone).
    public func forgetChoices(person: Int) throws {
        try locked {
            try db.transaction {
                try db.run("DELETE FROM pins WHERE person_id = ?", [.of(person)])
                try db.run("DELETE FROM excluded_days WHERE person_id = ?", [.of(person)])
            }
        }
    }

    public func setVideo(contentKey: String, path: String, excluded: Bool) throws {
        try locked {
            if excluded {
                try db.run("INSERT OR REPLACE INTO excluded_videos (content_key, path) VALUES (?, ?)", [.of(contentKey), .of(path)])
            } else {
                try db.run("DELETE FROM excluded_videos WHERE content_key = ?", [.of(contentKey)])
            }
        }
    }
}

/// The library folder: created on first use by the commands that write, refused clearly when
/// the name is taken by a file, and never made by a command that only reads it.
public enum LibraryFolder {
    /// Throws unless `folder` is a library folder that holds `file` (any file of it, when nil);
    /// `madeBy` says how a library gets one, e.g. "scan a folder into it first: glimt-pure scan FOLDER".
    public static func existing(_ folder: URL, holding file: String? = nil, madeBy: String) throws {
        let shown = ShownPath.escaped(folder.path)
        guard let status = try? FileStatus(folder.path) else { throw GlimtError("no library in \(shown) (\(madeBy) --library \(shown))") }
        guard status.kind == .folder else { throw GlimtError("the library must be a folder, and this is not one", path: folder.path) }
        if let file, (try? FileStatus(folder.appendingPathComponent(file).path)) == nil {
            throw GlimtError("no library in \(shown) (\(madeBy) --library \(shown))")
        }
    }

    public static func make(_ folder: URL) throws {
        if let status = try? FileStatus(folder.path) {
            guard status.kind == .folder else { throw GlimtError("the library must be a folder, and this is not one", path: folder.path) }
            return
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw GlimtError("cannot create the library folder (\(JSONFile.reason(error)))", path: folder.path)
        }
    }
}
