import Foundation
import XCTest
import TestSupport
@testable import AnalysisEngine
@testable import Library

/// The store's schema over time: an older store is brought up to date, a newer or a foreign one
/// is refused with a clear reason, never misread.
final class LibraryStoreTests: XCTestCase {
    private func folder() throws -> URL { temporaryFolder(self) }

    func testAVersionOneStoreIsMigratedWithItsVideosKept() throws {
        let library = try folder()
        do {
            let db = try Database(path: library.appendingPathComponent("library.sqlite").path)
            try db.execute(Schema.migrations[0])
            try db.execute("PRAGMA user_version = 1")
            try db.run("""
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
        XCTAssertLessThan(old.method.version, VideoAnalyzer.version, "so the next scan analyses it again")
        XCTAssertEqual([old.method.sampleRate, Double(old.method.analysisSide)], [8, 640], "version 4's columns: the settings scans had then")
        XCTAssertEqual(old.method.timeZone, "", "no time zone recorded: the next scan dates it again")
        XCTAssertEqual(Schema.version, 6)
        XCTAssertEqual(try store.setDate(contentKey: "k1", path: "/v/a.mp4", day: "2024-05-02", time: nil), ["2024-05-01"], "version 5's table exists; the pin of the old day goes")
        XCTAssertEqual(try store.days(), ["2024-05-02"])
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
            XCTAssertTrue("\(error)".contains("damaged or not a database"), "\(error)")
        }
        let file = try folder().appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try LibraryStore(library: file)) { error in
            XCTAssertTrue("\(error)".contains("the library must be a folder"), "\(error)")
        }
    }
}
