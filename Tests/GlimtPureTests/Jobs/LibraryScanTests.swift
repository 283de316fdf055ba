import Foundation
import XCTest
@testable import MediaIO
@testable import Faces
@testable import Film
@testable import Library
@testable import GlimtPure

/// The library as a person relies on it: scanned once, resumed after any stop, moved files
/// recognised, edited ones redone, references changed without decoding, choices kept.
final class LibraryScanTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    private func options() -> AnalysisOptions {
        var o = AnalysisOptions()
        o.timeZone = TimeZone(identifier: "UTC")!
        return o
    }

    private func scan(_ folder: URL, library: URL, workers: Int = 2) throws -> LibraryScan.Summary {
        try LibraryScan(library: library, options: options(), workers: workers).run([folder.path])
    }

    private func reference(_ photo: String) throws -> Reference {
        try References.make(photo: Fixtures.url(photo).path, faceNumber: nil, pipeline: try FacePipeline.shared(), id: 1,
                            sheetFolder: root.appendingPathComponent("sheets")).0
    }

    /// Killed with SIGKILL at random moments, three times over, then finished: the store is
    /// exactly that of one uninterrupted one-thread scan, and no finished video is decoded again.
    func testAScanKilledAtRandomPointsResumesToTheSameStore() throws {
        let videos = root.appendingPathComponent("videos")
        let faces = ["yunet/obama.png", "yunet/biden.png", "yunet/obama2.png", "yunet/obama3.png", "yunet/obama4.png"]
        let clips = (0..<10).map { LibraryFixtures.Clip(day: String(format: "202405%02d", 1 + $0 / 2), face: faces[$0 % faces.count]) }
        try LibraryFixtures.write(clips, to: videos.path, seconds: 3)
        let whole = root.appendingPathComponent("whole")
        XCTAssertEqual(try scan(videos, library: whole, workers: 1).analysed, clips.count)
        let expected = try LibraryStore(library: whole).dump()

        let killed = root.appendingPathComponent("killed")
        var generator = SystemRandomNumberGenerator()
        var committed: [Int] = []
        // Kills spread over the scan: the first while models load or the first videos decode.
        for window in [200_000...600_000, 400_000...1_500_000, 300_000...2_000_000] as [ClosedRange<UInt32>] {
            let p = LibraryFixtures.process(["scan", videos.path, "--library", killed.path, "--timezone", "UTC", "-q"])
            try p.run()
            usleep(UInt32.random(in: window, using: &generator))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let now = try LibraryStore(library: killed).counts().videos
            XCTAssertGreaterThanOrEqual(now, committed.last ?? 0, "a killed scan never loses a committed video")
            committed.append(now)
        }
        XCTAssertLessThan(committed[0], clips.count, "the first kill came before the scan ended")
        let before = DecodeCounter.total
        let rest = try scan(videos, library: killed)
        XCTAssertEqual(rest.analysed, clips.count - committed.last!, "only the videos not yet committed are analysed")
        XCTAssertEqual(rest.unchanged, committed.last!)
        let perVideo = rest.analysed > 0 ? (DecodeCounter.total - before) / rest.analysed : 0
        XCTAssertLessThanOrEqual(perVideo, 3 * 10 + 2, "each analysed video decoded once (30 frames), none of the committed ones")
        XCTAssertEqual(try LibraryStore(library: killed).dump(), expected, "the resumed store equals an uninterrupted one-thread scan")
        print("killed scans had committed \(committed) of \(clips.count) videos; the last scan analysed \(rest.analysed)")
    }

    func testMovedFilesAreRecognisedAndEditedOnesRedone() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try LibraryFixtures.write(to: videos.path)
        XCTAssertEqual(try scan(videos, library: library).analysed, paths.count)
        let moved = root.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: videos, to: moved)
        let before = DecodeCounter.total
        let again = try scan(moved, library: library)
        XCTAssertEqual(again.analysed, 0)
        XCTAssertEqual(again.moved, paths.count)
        XCTAssertEqual(DecodeCounter.total - before, 0, "a move decodes nothing")
        XCTAssertTrue(try LibraryStore(library: library).dump().contains(moved.path), "paths follow the files")

        // Edit one: new pixels under the same name.
        let edited = moved.appendingPathComponent(URL(fileURLWithPath: paths[2]).lastPathComponent)
        try FileManager.default.removeItem(at: edited)
        try LibraryFixtures.write([LibraryFixtures.Clip(day: "20240502", face: "yunet/obama4.png")], to: root.appendingPathComponent("new").path)
        try FileManager.default.moveItem(at: root.appendingPathComponent("new/VID_20240502_120000_0.mp4"), to: edited)
        let third = try scan(moved, library: library)
        XCTAssertEqual(third.analysed, 1)
        XCTAssertEqual(third.unchanged, paths.count - 1)
        XCTAssertEqual(try LibraryStore(library: library).counts().videos, paths.count, "the edited file replaced its old result")
    }

    func testASecondReferenceChangesPicksWithoutDecoding() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        try LibraryFixtures.write(to: videos.path)
        _ = try scan(videos, library: library)
        func statuses(_ refs: [Reference]) throws -> [String: DayReport] {
            var out: [String: DayReport] = [:]
            try LibraryDays(library: library, options: options(), references: refs).forEachDay { out[$0.day] = $0 }
            return out
        }
        let obama = try reference("yunet/obama4.png"), biden = try reference("yunet/biden.png")
        let before = DecodeCounter.total
        let one = try statuses([obama])
        XCTAssertEqual(one["2024-05-01"]?.status, .picked)
        XCTAssertTrue(one["2024-05-01"]?.pick?.video.hasSuffix("_0.mp4") == true, "Obama's clip, not Biden's")
        XCTAssertEqual(one["2024-05-02"]?.status, .noPerson, "Biden alone: not the person")
        XCTAssertEqual(one["2024-05-03"]?.status, .picked)
        let two = try statuses([obama, biden])
        XCTAssertEqual(two["2024-05-02"]?.status, .picked, "with Biden's photo added, his day has a pick")
        XCTAssertEqual(two["2024-05-03"]?.pick?.video, one["2024-05-03"]?.pick?.video)
        XCTAssertEqual(DecodeCounter.total - before, 0, "re-scoring decodes no frame")
        // The same days, judged from a fresh analysis, agree (stored embeddings are float16).
        let fresh = try AnalysisRun.run(inputs: [videos.path], analyzer: VideoAnalyzer(options: options(), references: [obama, biden],
                                                                                        pipeline: try FacePipeline.shared()))
        for p in fresh.picks {
            XCTAssertEqual(two[p.day]?.pick?.video, p.video)
            XCTAssertEqual(two[p.day]?.pick?.start ?? -1, p.start, accuracy: 1e-9)
            XCTAssertEqual(two[p.day]?.pick?.score ?? -1, p.score, accuracy: 1e-3)
        }
    }

    func testPinsAndExclusionsSurviveARescanAndAreHonouredByTheFilm() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try LibraryFixtures.write(to: videos.path)
        _ = try scan(videos, library: library)
        let choices = try LibraryChoices(library: library)
        try choices.pin(day: "2024-05-01", file: paths[1], start: 0.3)
        XCTAssertEqual(try choices.set("2024-05-03", excluded: true), "day 2024-05-03")
        XCTAssertThrowsError(try choices.pin(day: "2024-05-02", file: paths[0], start: 0)) { XCTAssertTrue("\($0)".contains("is not a video of 2024-05-02"), "\($0)") }
        XCTAssertThrowsError(try choices.pin(day: "2024-05-01", file: paths[0], start: 99)) { XCTAssertTrue("\($0)".contains("not inside the video"), "\($0)") }
        // Rescan after moving everything: the choices stay.
        let moved = root.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: videos, to: moved)
        _ = try scan(moved, library: library)
        let obama = try reference("yunet/obama4.png")
        let days = try LibraryDays(library: library, options: options(), references: [obama])
        var reports: [String: DayReport] = [:]
        try days.forEachDay { reports[$0.day] = $0 }
        XCTAssertEqual(reports["2024-05-01"]?.status, .pinned)
        XCTAssertEqual(reports["2024-05-01"]?.pick?.video, moved.appendingPathComponent(URL(fileURLWithPath: paths[1]).lastPathComponent).path)
        XCTAssertEqual(reports["2024-05-01"]?.pick?.start, 0.3)
        XCTAssertEqual(reports["2024-05-03"]?.status, .excluded)

        var film = FilmOptions()
        (film.width, film.height, film.audio) = (180, 320, false)
        let out = root.appendingPathComponent("film.mp4").path
        let outcome = try FilmJob(film: film, output: out, fromDay: nil, toDay: nil).run(.library(days))
        XCTAssertEqual(outcome.segments.map(\.day), ["2024-05-01"], "05-02 has no person, 05-03 is excluded")
        XCTAssertEqual(outcome.segments.first?.start, 0.3)
        XCTAssertEqual(try VideoReader(path: out).info.duration, 1, accuracy: 0.05)

        // Back to automatic, and the excluded day included again.
        try choices.automatic(day: "2024-05-01")
        try choices.set("2024-05-03", excluded: false)
        var after: [String: DayReport] = [:]
        try days.forEachDay { after[$0.day] = $0 }
        XCTAssertEqual(after["2024-05-01"]?.status, .picked)
        XCTAssertEqual(after["2024-05-03"]?.status, .picked)
        // A whole video excluded: the day falls to its other video.
        try choices.set(paths[0].replacingOccurrences(of: videos.path, with: moved.path), excluded: true)
        var third: [String: DayReport] = [:]
        try days.forEachDay { third[$0.day] = $0 }
        XCTAssertEqual(third["2024-05-01"]?.status, .noPerson, "Obama's clip excluded; Biden's is not the person")
        XCTAssertEqual(third["2024-05-01"]?.candidates.filter(\.excluded).count, 1)
    }

    /// Two scans of one library at once: the second waits and says so, nothing is analysed twice.
    func testTwoScansAtOnceTakeTurns() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try LibraryFixtures.write(to: videos.path)
        let args = ["scan", videos.path, "--library", library.path, "--timezone", "UTC", "--json"]
        let a = LibraryFixtures.process(args), b = LibraryFixtures.process(args)
        try a.run()
        usleep(100_000)
        try b.run()
        var outputs: [(Int32, LibraryScan.Summary, String)] = []
        for p in [a, b] {
            let out = (p.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
            let err = String(decoding: (p.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            outputs.append((p.terminationStatus, try JSONDecoder().decode(LibraryScan.Summary.self, from: out), err))
        }
        XCTAssertEqual(outputs.map(\.0), [0, 0], outputs.map(\.2).joined())
        XCTAssertEqual(outputs.map(\.1.analysed).reduce(0, +), paths.count, "each video analysed once")
        XCTAssertTrue(outputs[1].2.contains("another scan is working on this library; waiting for it to finish"), outputs[1].2)
        XCTAssertEqual(try LibraryStore(library: library).counts().videos, paths.count)
    }
}
