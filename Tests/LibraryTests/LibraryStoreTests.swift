import Analysis
import Foundation
import Imaging
import TestSupport
import XCTest

@testable import Library

/// The store's schema over time: an older store is brought up to date, a newer or a foreign one
/// is refused with a clear reason, never misread.
final class LibraryStoreTests: XCTestCase {
    /// The analyzer's version when these tests were written (the store cannot see the engine):
    /// rows saved with it are current, rows from before it are observed again.
    static let analyzerVersion = 2

    private func folder() throws -> URL { temporaryFolder(self) }

    func testAVersionOneStoreIsMigratedWithItsVideosKept() throws {
        let library = try folder()
        do {
            let db = try Database(path: library.appendingPathComponent("library.sqlite").path)
            try db.execute(Schema.migrations[0])
            try db.execute("PRAGMA user_version = 1")
            try db.run(
                """
                INSERT INTO videos (content_key, path, size, modified, day, date_source, duration, width, height, rotation, codec, hdr, analysis_version)
                VALUES ('k1', '/v/a.mp4', 10, 1, '2024-05-01', 'file name', 2, 320, 240, 0, 'h264', 0, 1)
                """)
        }
        let store = try LibraryStore(library: library)
        XCTAssertEqual(try store.counts().videos, 1)
        XCTAssertEqual(try store.identity(path: "/v/a.mp4")?.contentKey, "k1")
        try store.pin(day: "2024-05-01", contentKey: "k1", start: 0.5, person: 1)
        XCTAssertEqual(try store.choices(person: 1).pins["2024-05-01"]?.start, 0.5, "the tables of version 2 exist")
        let old = try XCTUnwrap(store.videos(onDay: "2024-05-01").first)
        XCTAssertNil(old.recording, "version 3's column exists, empty for rows from before")
        XCTAssertLessThan(old.method.version, Self.analyzerVersion, "so the next scan analyses it again")
        XCTAssertEqual([old.method.sampleRate, Double(old.method.analysisSide)], [8, 640], "version 4's columns: the settings scans had then")
        XCTAssertEqual(old.method.timeZone, "", "no time zone recorded: the next scan dates it again")
        XCTAssertEqual(old.notes, [], "version 7's column exists, empty for rows from before")
        XCTAssertTrue(old.method.everyFace, "version 8: rows from before embedded every face")
        XCTAssertEqual(try store.history(), [], "version 9's tables exist, empty: no scan recorded")
        XCTAssertNil(old.stretches, "version 10: rows from before sampled every second")
        XCTAssertFalse(old.method.keyframeLook)
        XCTAssertNil(old.speech, "version 11: rows from before were not listened to")
        XCTAssertTrue(old.frames.allSatisfy { $0.shotChange == nil && $0.faces.allSatisfy { $0.eyes == nil } })
        XCTAssertEqual(Schema.version, 11)
        XCTAssertEqual(
            try store.setDate(contentKey: "k1", path: "/v/a.mp4", day: "2024-05-02", time: nil), ["2024-05-01"],
            "version 5's table exists; the pin of the old day goes")
        XCTAssertEqual(try store.days(), ["2024-05-02"])
    }

    /// A followed face is stored as a pointer to its source (no embedding of its own in its
    /// row) and read back with the source's embedding; a pointer to nothing reads as no
    /// embedding, never as another face's.
    func testABorrowedEmbeddingIsStoredOnceAndFilledInOnReading() throws {
        let library = try folder()
        let store = try LibraryStore(library: library)
        let e = try Embedding(validating: (0..<128).map { Float($0 % 7) - 3 })
        func face(_ borrowedFrom: BorrowedEmbedding?) -> ObservedFace {
            ObservedFace(box: Box(x: 1, y: 2, width: 30, height: 36), score: 0.9, quality: 0.8, embedding: e, borrowedFrom: borrowedFrom)
        }
        let frames = [
            ObservedFrame(time: 0, aesthetics: Self.looks, sharpness: 0.5, faces: [face(nil)]),
            ObservedFrame(
                time: 0.125, aesthetics: Self.looks, sharpness: 0.5, faces: [face(BorrowedEmbedding(framesBack: 1, face: 0, likeness: 0.93))]),
            ObservedFrame(
                time: 0.25, aesthetics: Self.looks, sharpness: 0.5,
                faces: [
                    face(BorrowedEmbedding(framesBack: 2, face: 0, likeness: 0.91)),
                    face(BorrowedEmbedding(framesBack: 1, face: 3, likeness: 0.9)),
                ]),
        ]
        let method = Self.method(everyFace: false)
        try store.save(
            ObservedVideo(
                contentKey: "k", path: "/v/a.mp4", size: 1, modified: 0,
                capture: CaptureDate(day: "2024-05-01", time: nil, instant: nil, source: .fileName),
                duration: 1, width: 320, height: 240, rotation: 0, codec: "h264", hdr: false, recording: nil, method: method, frames: frames,
                notes: []))
        let db = try Database(path: store.databasePath)
        XCTAssertEqual(try db.rows("SELECT count(*) FROM faces WHERE embedding IS NOT NULL") { $0.int(0) }, [1], "the embedding is stored once")
        let read = try XCTUnwrap(store.videos(onDay: "2024-05-01").first)
        XCTAssertFalse(read.method.everyFace)
        let source = try XCTUnwrap(read.frames[0].faces[0].embedding, "the stored embedding (kept at the store's precision)")
        XCTAssertGreaterThan(source.cosine(e), 0.999)
        XCTAssertEqual(read.frames[1].faces[0].embedding, source)
        XCTAssertEqual(read.frames[1].faces[0].borrowedFrom, BorrowedEmbedding(framesBack: 1, face: 0, likeness: 0.93))
        XCTAssertEqual(read.frames[2].faces[0].embedding, source)
        XCTAssertNil(read.frames[2].faces[1].embedding, "a pointer to a face that is not there gives nothing")
    }

    /// Days judged on several threads read the store through connections of their own, side by
    /// side, and read what it holds; a change still in progress on the store is seen by the
    /// reading made inside it, and is gone again when it is undone.
    func testAStoreReadOnSeveralThreadsAndInsideAChangeReadsWhatItHolds() throws {
        let store = try LibraryStore(library: try folder())
        let e = try Embedding(validating: (0..<128).map { Float($0 % 5) - 2 })
        func video(_ key: String) -> ObservedVideo {
            ObservedVideo(
                contentKey: key, path: "/v/\(key).mp4", size: 1, modified: 0,
                capture: CaptureDate(day: "2024-05-01", time: nil, instant: nil, source: .fileName),
                duration: 1, width: 320, height: 240, rotation: 0, codec: "h264", hdr: false, recording: nil,
                method: Self.method(everyFace: true),
                frames: (0..<8).map { i in
                    ObservedFrame(
                        time: Double(i) / 8, aesthetics: Self.looks, sharpness: 0.5,
                        faces: [ObservedFace(box: Box(x: Float(i), y: 2, width: 30, height: 36), score: 0.9, quality: 0.8, embedding: e)])
                }, notes: [])
        }
        try store.save(video("a"))
        let once = try store.videos(onDay: "2024-05-01")
        XCTAssertEqual(once.map(\.contentKey), ["a"])
        var slots = Array(repeating: [ObservedVideo]?.none, count: 64)
        slots.withUnsafeMutableBufferPointer { out in
            let out = out
            DispatchQueue.concurrentPerform(iterations: out.count) { i in out[i] = try? store.videos(onDay: "2024-05-01") }
        }
        XCTAssertTrue(slots.allSatisfy { $0?.map(\.frames) == once.map(\.frames) }, "every thread reads the same day")
        struct Undo: Error {}
        XCTAssertThrowsError(
            try store.inOneTransaction {
                try store.save(video("b"))
                XCTAssertEqual(try store.videos(onDay: "2024-05-01").map(\.contentKey), ["a", "b"], "the change in progress is seen inside it")
                throw Undo()
            })
        XCTAssertEqual(try store.videos(onDay: "2024-05-01").map(\.contentKey), ["a"], "and is gone once undone")
    }

    /// What a run committed is in library.sqlite itself once the run is over, also when another
    /// process was reading the store as it closed: a copy of that one file, a backup, holds it.
    func testWhatARunCommittedIsInTheDatabaseFileAfterIt() throws {
        let library = try folder()
        var store: LibraryStore? = try LibraryStore(library: library)
        let path = try XCTUnwrap(store).databasePath
        let reader = try Database(readingOnly: path)
        XCTAssertEqual(try reader.rows("SELECT count(*) FROM videos") { $0.int(0) }, [0])
        let method = Self.method(everyFace: false)
        for k in 0..<3 {
            try XCTUnwrap(store).save(
                ObservedVideo(
                    contentKey: "k\(k)", path: "/v/\(k).mp4", size: 1, modified: 0,
                    capture: CaptureDate(day: "2024-05-0\(k + 1)", time: nil, instant: nil, source: .fileName),
                    duration: 1, width: 320, height: 240, rotation: 0, codec: "h264", hdr: false, recording: nil, method: method,
                    frames: [ObservedFrame(time: 0, aesthetics: Self.looks, sharpness: 0.5, faces: [])], notes: []))
        }
        // The run ends while the reader is still open (ARC may otherwise close it after its last use).
        try withExtendedLifetime(reader) {
            store = nil
            let backup = try folder().appendingPathComponent("library.sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: backup.path)
            let copy = try Database(inspecting: backup.path)
            XCTAssertEqual(try copy.rows("SELECT count(*) FROM videos") { $0.int(0) }, [3], "the file alone holds every committed video")
        }
    }

    /// A store whose days were read on threads of their own closes as one that was only written:
    /// its WAL is copied in and removed, so the next command that only reads it (`merge` of
    /// another library) finds a lone file and changes nothing beside it. The writer's connection
    /// must be the last to close; a read-only one closing last leaves the WAL and its index.
    func testAStoreReadOnThreadsLeavesNoWALWhenItCloses() throws {
        let library = try folder()
        var store: LibraryStore? = try LibraryStore(library: library)
        let path = try XCTUnwrap(store).databasePath
        let method = Self.method(everyFace: false)
        let frame = ObservedFrame(time: 0, aesthetics: Self.looks, sharpness: 0.5, faces: [])
        try XCTUnwrap(store).save(Self.video("a", duration: 1, method: method, frames: [frame]))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in XCTAssertEqual(try? store?.videos(onDay: "2024-05-01").count, 1) }
        store = nil
        for leftover in [path + "-wal", path + "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), "\(leftover) is left beside the closed store")
        }
    }

    /// How every frame of these tests looks: middling, nothing rejected.
    private static let looks = Aesthetics(value: 0.5, exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil)

    /// The settings a scan of today records: 8 frames a second at 640 pixels, in UTC.
    private static func method(everyFace: Bool) -> ObservationMethod {
        ObservationMethod(version: analyzerVersion, sampleRate: 8, analysisSide: 640, timeZone: "UTC", everyFace: everyFace)
    }

    /// A 320x240 video of 2024-05-01 at /v/`key`.mp4, as a scan would save it.
    private static func video(
        _ key: String, duration: Double, method: ObservationMethod, frames: [ObservedFrame], stretches: [Range<Double>]? = nil,
        speech: SpeechMap? = nil
    ) -> ObservedVideo {
        ObservedVideo(
            contentKey: key, path: "/v/\(key).mp4", size: 1, modified: 0,
            capture: CaptureDate(day: "2024-05-01", time: nil, instant: nil, source: .fileName),
            duration: duration, width: 320, height: 240, rotation: 0, codec: "h264", hdr: false, recording: nil, method: method, frames: frames,
            stretches: stretches, speech: speech)
    }

    /// A video looked at by its keyframes keeps its stretches to the last bit, and is judged
    /// from the store as it was observed: the keyframes outside them are evidence, not windows.
    func testALookedAtVideoKeepsItsStretchesExactly() throws {
        let store = try LibraryStore(library: try folder())
        let stretches = [0.125..<2.2666666666666666, 20.0..<21.999999999999996]
        let frames = [0.125, 1.0, 2.0, 5.033333333333333, 20.0, 21.5].map {
            ObservedFrame(time: $0, aesthetics: Self.looks, sharpness: 0.5, faces: [])
        }
        let method = ObservationMethod(
            version: Self.analyzerVersion, sampleRate: 8, analysisSide: 640, timeZone: "UTC", everyFace: false, keyframeLook: true)
        try store.save(Self.video("looked", duration: 30, method: method, frames: frames, stretches: stretches))
        try store.save(Self.video("whole", duration: 30, method: method, frames: frames))
        let read = try store.videos(onDay: "2024-05-01")
        XCTAssertEqual(read.map(\.stretches), [stretches, nil])
        XCTAssertEqual(read.map(\.method.keyframeLook), [true, false], "a video sampled whole was not looked at, whatever the setting")
        XCTAssertEqual(try store.identity(contentKey: "looked")?.method.keyframeLook, true)
        XCTAssertEqual(read[0].sampledAndGlimpsed.glimpses.map(\.time), [5.033333333333333])
        XCTAssertTrue(try store.dump().contains("|0.125 2.2666666666666666;20.0 21.999999999999996"), "the dump holds them")
        XCTAssertNil(LibraryStore.ranges("1 2;3"), "a damaged row reads as sampled whole")
        XCTAssertNil(LibraryStore.ranges("2 1"))
    }

    /// A speech map is kept as its runs' text, as stretches are, and read back the same.
    func testSpeechMapKeepsItsRunsAsText() {
        let map = SpeechMap(runs: [0.02..<1.26, 1.5..<4])
        let text = LibraryStore.rangesText(map.runs)
        XCTAssertEqual(text, "0.02 1.26;1.5 4.0")
        XCTAssertEqual(LibraryStore.ranges(text).map(SpeechMap.init(runs:)), map)
        XCTAssertEqual(LibraryStore.ranges("").map(SpeechMap.init(runs:)), SpeechMap(runs: []))
        XCTAssertNil(LibraryStore.ranges("1 x"))
    }

    /// What a whole moment needs is stored with the video and read back as it was: a later
    /// reference chooses its second by speech, cuts and eyes without decoding.
    func testAMomentsMarksAreKeptExactly() throws {
        let store = try LibraryStore(library: try folder())
        let face = ObservedFace(box: Box(x: 1, y: 2, width: 30, height: 40), score: 0.9, quality: 0.7, embedding: nil, eyes: 0.0625)
        let frames = [
            ObservedFrame(time: 0, aesthetics: Self.looks, sharpness: 0.5, faces: [face]),
            ObservedFrame(time: 0.125, aesthetics: Self.looks, sharpness: 0.5, faces: [face, face], shotChange: 0.375),
        ]
        let speech = SpeechMap(runs: [0.02..<1.26, 1.5..<4])
        let method = Self.method(everyFace: true)
        try store.save(Self.video("heard", duration: 4, method: method, frames: frames, speech: speech))
        try store.save(Self.video("silent", duration: 4, method: method, frames: frames))
        let read = try store.videos(onDay: "2024-05-01")
        XCTAssertEqual(read.map(\.speech), [speech, nil])
        XCTAssertEqual(read[0].frames.map(\.shotChange), [nil, 0.375])
        XCTAssertEqual(read[0].frames.map { $0.faces.map(\.eyes) }, [[0.0625], [0.0625, 0.0625]])
    }

    func testANewerOrForeignStoreIsRefused() throws {
        let newer = try folder()
        do {
            let db = try Database(path: newer.appendingPathComponent("library.sqlite").path)
            try db.execute("PRAGMA user_version = 99")
        }
        XCTAssertThrowsError(try LibraryStore(library: newer)) { error in
            XCTAssertTrue("\(error)".contains("written by a newer glimt-pure (store version 99; this one reads up to \(Schema.version))"), "\(error)")
        }
        let foreign = try folder()
        do {
            let db = try Database(path: foreign.appendingPathComponent("library.sqlite").path)
            try db.execute("CREATE TABLE recipes (name TEXT)")
        }
        XCTAssertThrowsError(try LibraryStore(library: foreign)) { error in
            XCTAssertTrue("\(error)".contains("not a glimt library database (it holds other tables: recipes)"), "\(error)")
        }
        let notADatabase = try folder()
        try Data("hello, this is not sqlite at all............................................................".utf8)
            .write(to: notADatabase.appendingPathComponent("library.sqlite"))
        XCTAssertThrowsError(try LibraryStore(library: notADatabase)) { error in
            XCTAssertTrue("\(error)".contains("not a glimt library database (not an SQLite file)"), "\(error)")
        }
        let file = try folder().appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try LibraryStore(library: file)) { error in
            XCTAssertTrue("\(error)".contains("the library must be a folder"), "\(error)")
        }
    }

    /// A store being written by another command keeps its latest commits in its WAL while a
    /// checkpoint copies them into the file, page by page: a command opening it then (`days`
    /// during a background `scan`) reads it whole through the WAL, and is not told the store is
    /// damaged. The first page, torn here as a checkpoint caught midway leaves it, is in the WAL.
    func testAStoreInUseOpensWhileItsFileIsTorn() throws {
        let library = temporaryFolder(self)
        let path = library.appendingPathComponent("library.sqlite").path
        let writer = try LibraryStore(library: library)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "the store's tables are in its WAL")
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seek(toOffset: 100)
        try file.write(contentsOf: Data(repeating: 0xA5, count: 3996))
        try file.close()
        let reader = try LibraryStore(library: library)
        XCTAssertEqual(try reader.counts().videos, 0)
        withExtendedLifetime(writer) {}
    }
}

/// A store that is refused is never written: the check reads the file as it lies on disk before
/// anything (a journal mode, a WAL, a checkpoint) could change a byte of it.
final class RefusedStoreTests: XCTestCase {
    /// The bytes and modification time of every file in `folder`, by name.
    private func snapshot(_ folder: URL) throws -> [String: (Data, Date)] {
        var out: [String: (Data, Date)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            out[name] = (try Data(contentsOf: url), attributes[.modificationDate] as! Date)
        }
        return out
    }

    private func assertRefusedUntouched(
        _ library: URL, also other: URL? = nil, saying reason: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let folders = [library] + (other.map { [$0] } ?? [])
        let before = try folders.map(snapshot)
        XCTAssertThrowsError(try LibraryStore(library: library), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(reason), "\(error)", file: file, line: line)
            XCTAssertEqual("\(error)".split(separator: "\n").count, 1, file: file, line: line)
        }
        let after = try folders.map(snapshot)
        for (b, a) in zip(before, after) {
            XCTAssertEqual(Set(a.keys), Set(b.keys), "no file made or removed beside it", file: file, line: line)
            for (name, (data, date)) in b {
                XCTAssertEqual(a[name]?.0, data, "\(name): the same bytes", file: file, line: line)
                XCTAssertEqual(a[name]?.1, date, "\(name): the same modification time", file: file, line: line)
            }
        }
    }

    /// Another program's SQLite database, in the rollback-journal mode most programs keep.
    private func foreignDatabase(at path: String) throws {
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode = DELETE")
        try db.execute("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup')")
    }

    func testAForeignDatabaseIsRefusedByteForByte() throws {
        let library = temporaryFolder(self)
        try foreignDatabase(at: library.appendingPathComponent("library.sqlite").path)
        try assertRefusedUntouched(library, saying: "not a glimt library database (it holds other tables: recipes)")
    }

    func testASymlinkedForeignDatabaseIsRefusedByteForByte() throws {
        let library = temporaryFolder(self), elsewhere = temporaryFolder(self)
        let real = elsewhere.appendingPathComponent("recipes.db")
        try foreignDatabase(at: real.path)
        try FileManager.default.createSymbolicLink(at: library.appendingPathComponent("library.sqlite"), withDestinationURL: real)
        try assertRefusedUntouched(library, also: elsewhere, saying: "not a glimt library database")
    }

    func testAForeignDatabaseWithAStaleWALBesideItIsRefusedByteForByte() throws {
        let library = temporaryFolder(self)
        let path = library.appendingPathComponent("library.sqlite").path
        try foreignDatabase(at: path)
        // A WAL left by some earlier program: SQLite opening the file read-write would replay it.
        try Data((0..<4096).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: path + "-wal"))
        try assertRefusedUntouched(library, saying: "not a glimt library database")
    }

    func testAStoreFromANewerGlimtIsRefusedByteForByte() throws {
        let library = temporaryFolder(self)
        do {
            let db = try Database(path: library.appendingPathComponent("library.sqlite").path)
            try db.execute("CREATE TABLE videos (id INTEGER PRIMARY KEY)")
            try db.execute("PRAGMA user_version = 99")
        }
        try assertRefusedUntouched(library, saying: "written by a newer glimt-pure (store version 99; this one reads up to \(Schema.version))")
    }

    /// A schema number glimt never wrote (negative; or one of its own over tables that are not
    /// that version's) is one line, and the file is left as it was: every command opens the
    /// store, so a trap here would take them all.
    func testASchemaNumberGlimtNeverWroteIsOneLineByteForByte() throws {
        let cases: [(version: Int, tables: String, reason: String)] = [
            (-1, "", "store version -1 is not one glimt writes"),
            (Int(Int32.min), "", "store version \(Int32.min) is not one glimt writes"),
            (-1, Schema.migrations.joined(separator: "\n"), "store version -1 is not one glimt writes"),
            (3, "", "not a glimt library database (its tables are not those of glimt's store version 3: it holds keep"),
            (
                7, "CREATE TABLE recipes (name TEXT);",
                "not a glimt library database (its tables are not those of glimt's store version 7: it holds recipes"
            ),
            (
                Schema.version, Schema.migrations.dropLast().joined(separator: "\n"),
                "not a glimt library database (its tables are not those of glimt's store version \(Schema.version)"
            ),
        ]
        for c in cases {
            let library = temporaryFolder(self)
            do {
                let db = try Database(path: library.appendingPathComponent("library.sqlite").path)
                try db.execute("PRAGMA journal_mode = DELETE")
                if !c.tables.isEmpty { try db.execute(c.tables) }
                try db.execute("CREATE TABLE IF NOT EXISTS keep (x); PRAGMA user_version = \(c.version)")
                if c.version == 7 || c.version == Schema.version { try db.execute("DROP TABLE keep") }
            }
            try assertRefusedUntouched(library, saying: c.reason)
        }
    }

    func testAFileThatIsNotSQLiteIsRefusedByteForByte() throws {
        let library = temporaryFolder(self)
        try Data("hello, this is not sqlite at all............................................................".utf8)
            .write(to: library.appendingPathComponent("library.sqlite"))
        try assertRefusedUntouched(library, saying: "not a glimt library database (not an SQLite file)")
    }

    /// An empty file is what SQLite leaves when a new store's creation stops before its first
    /// write: it is taken as a new store.
    func testAnEmptyFileIsANewStore() throws {
        let library = temporaryFolder(self)
        XCTAssertTrue(FileManager.default.createFile(atPath: library.appendingPathComponent("library.sqlite").path, contents: Data()))
        let store = try LibraryStore(library: library)
        XCTAssertEqual(try store.counts().videos, 0)
    }
}
