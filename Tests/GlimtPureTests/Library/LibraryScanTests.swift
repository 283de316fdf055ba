import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import Film
@testable import GlimtPure
@testable import Library

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
        try References.make(
            photo: Fixtures.url(photo).path, faceNumber: nil, models: try FaceModels.load(), id: 1,
            sheetFolder: root.appendingPathComponent("sheets")
        ).0
    }

    func testMovedFilesAreRecognisedAndEditedOnesRedone() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try GeneratedClips.write(to: videos.path)
        XCTAssertEqual(try scan(videos, library: library).analysed, paths.count)
        let moved = root.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: videos, to: moved)
        let before = DecodedPictures.total
        let again = try scan(moved, library: library)
        XCTAssertEqual(again.analysed, 0)
        XCTAssertEqual(again.moved, paths.count)
        XCTAssertEqual(DecodedPictures.total - before, 0, "a move decodes nothing")
        XCTAssertTrue(try LibraryStore(library: library).dump().contains(moved.path), "paths follow the files")

        // Edit one: new pixels under the same name.
        let edited = moved.appendingPathComponent(URL(fileURLWithPath: paths[2]).lastPathComponent)
        try FileManager.default.removeItem(at: edited)
        try GeneratedClips.write([GeneratedClips.Clip(day: "20240502", face: "yunet/obama4.png")], to: root.appendingPathComponent("new").path)
        try FileManager.default.moveItem(at: root.appendingPathComponent("new/VID_20240502_120000_0.mp4"), to: edited)
        let third = try scan(moved, library: library)
        XCTAssertEqual(third.analysed, 1)
        XCTAssertEqual(third.unchanged, paths.count - 1)
        XCTAssertEqual(try LibraryStore(library: library).counts().videos, paths.count, "the edited file replaced its old result")
    }

    func testASecondReferenceChangesPicksWithoutDecoding() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        try GeneratedClips.write(to: videos.path)
        _ = try scan(videos, library: library)
        func statuses(_ refs: [Reference]) throws -> [String: DayReport] {
            var out: [String: DayReport] = [:]
            try LibraryDays(library: library, rules: options().rules, lookFor: .only(refs)).forEachDay { out[$0.day] = $0 }
            return out
        }
        let obama = try reference("yunet/obama4.png"), biden = try reference("yunet/biden.png")
        let before = DecodedPictures.total
        let one = try statuses([obama])
        XCTAssertEqual(one["2024-05-01"]?.status, .picked)
        XCTAssertTrue(one["2024-05-01"]?.pick?.video.hasSuffix("_0.mp4") == true, "Obama's clip, not Biden's")
        XCTAssertEqual(one["2024-05-02"]?.status, .noPerson, "Biden alone: not the person")
        XCTAssertEqual(one["2024-05-03"]?.status, .picked)
        let two = try statuses([obama, biden])
        XCTAssertEqual(two["2024-05-02"]?.status, .picked, "with Biden's photo added, his day has a pick")
        XCTAssertEqual(two["2024-05-03"]?.pick?.video, one["2024-05-03"]?.pick?.video)
        XCTAssertEqual(DecodedPictures.total - before, 0, "re-scoring decodes no frame")
        // The same days, judged from a fresh analysis, agree (stored embeddings are float16).
        let models = try FaceModels.load()
        let fresh = AnalysisRun.run(
            inputs: [videos.path], analyzer: VideoAnalyzer(options: options(), references: [obama, biden].map(\.embedding), models: models))
        for p in fresh.picks {
            XCTAssertEqual(two[p.day]?.pick?.video, p.video)
            XCTAssertEqual(two[p.day]?.pick?.start ?? -1, p.start, accuracy: 1e-9)
            XCTAssertEqual(two[p.day]?.pick?.score ?? -1, p.score, accuracy: 1e-3)
        }
    }

    func testPinsAndExclusionsSurviveARescanAndAreHonouredByTheFilm() throws {
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try GeneratedClips.write(to: videos.path)
        _ = try scan(videos, library: library)
        let choices = try LibraryChoices(library: library, person: 1)
        try choices.pin(day: "2024-05-01", file: paths[1], start: 0.3)
        XCTAssertEqual(try choices.set("2024-05-03", excluded: true), "day 2024-05-03")
        XCTAssertThrowsError(try choices.pin(day: "2024-05-02", file: paths[0], start: 0)) {
            XCTAssertTrue("\($0)".contains("is not a video or photo of 2024-05-02"), "\($0)")
        }
        XCTAssertThrowsError(try choices.pin(day: "2024-05-01", file: paths[0], start: 99)) {
            XCTAssertTrue("\($0)".contains("not inside the video"), "\($0)")
        }
        // Rescan after moving everything: the choices stay.
        let moved = root.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: videos, to: moved)
        _ = try scan(moved, library: library)
        let obama = try reference("yunet/obama4.png")
        let days = try LibraryDays(library: library, rules: options().rules, lookFor: .only([obama]))
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
        XCTAssertEqual(try VideoFacts.read(path: out, timeZone: .current).duration, 1, accuracy: 0.05)

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
}

/// The library records how it analysed each video, so a scan with other settings never mixes
/// them silently.
final class ScanSettingsTests: XCTestCase {
    private func scan(
        _ folder: URL, library: URL, rate: Double = AnalysisOptions().sampleRate, zone: String = "UTC",
        everyFace: Bool = false
    ) throws -> LibraryScan.Summary {
        var options = AnalysisOptions()
        options.sampleRate = rate
        options.followFaces = !everyFace
        options.timeZone = TimeZone(identifier: zone)!
        return try LibraryScan(library: library, options: options).run([folder.path])
    }

    private func frameCounts(_ library: URL) throws -> [Int] {
        let store = try LibraryStore(library: library)
        return try store.days().flatMap { try store.videos(onDay: $0).map(\.frames.count) }
    }

    func testAnotherSampleRateAnalysesAgainAndSaysWhy() throws {
        let root = temporaryFolder(self)
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try GeneratedClips.write(to: videos.path, seconds: 2)
        let slow = try scan(videos, library: library, rate: 4)
        XCTAssertEqual(slow.analysed, paths.count)
        XCTAssertEqual(slow.reobserved, 0, "nothing was stored before")
        XCTAssertEqual(try frameCounts(library), [Int](repeating: 8, count: paths.count), "2 s at 4 a second")

        let again = try scan(videos, library: library, rate: 4)
        XCTAssertEqual([again.analysed, again.unchanged], [0, paths.count], "the same settings: nothing to do")

        let full = try scan(videos, library: library)
        XCTAssertEqual(full.analysed, paths.count, "8 a second is not what the store holds: every video is analysed again")
        XCTAssertEqual(full.reobserved, paths.count)
        XCTAssertEqual(full.settingsChanged, ["sampled at 4/s, now 8/s"])
        XCTAssertEqual(try frameCounts(library), [Int](repeating: 16, count: paths.count), "no video keeps frames of the other rate")
        XCTAssertEqual(Set(try LibraryStore(library: library).videos(onDay: "2024-05-01").map(\.method.sampleRate)), [8])
    }

    /// Followed faces stand for the default scan; one asking for every face analyses the
    /// followed videos again (and says so), and a default scan after it keeps the exact store.
    func testEveryFaceAnalysesFollowedVideosAgainButNotTheOtherWay() throws {
        let root = temporaryFolder(self)
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        let paths = try GeneratedClips.write(to: videos.path, seconds: 2)
        func borrowed() throws -> Int {
            let store = try LibraryStore(library: library)
            return try store.days().flatMap { try store.videos(onDay: $0).flatMap { $0.frames.flatMap(\.faces) } }.filter(\.borrowed).count
        }
        XCTAssertEqual(try scan(videos, library: library).analysed, paths.count)
        XCTAssertGreaterThan(try borrowed(), 0, "faces that stay put borrow by default")
        let every = try scan(videos, library: library, everyFace: true)
        XCTAssertEqual([every.analysed, every.reobserved], [paths.count, paths.count])
        XCTAssertEqual(every.settingsChanged, ["faces followed, now every face embedded"])
        XCTAssertEqual(try borrowed(), 0)
        let again = try scan(videos, library: library)
        XCTAssertEqual([again.analysed, again.unchanged], [0, paths.count], "a store of every face's own embedding is kept")
    }

    /// A long video is looked at by its keyframes first; a scan asking for full passes analyses
    /// it again (and says so), and a default scan after that keeps the full store. A second
    /// pinned outside the stretches is the keyframe there, pinned all the same.
    func testFullPassesAnalyseLookedAtVideosAgainButNotTheOtherWay() throws {
        let root = temporaryFolder(self)
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        let clip = videos.appendingPathComponent("long_day.mp4")
        try FileManager.default.copyItem(at: Fixtures.url("long/long_day.mp4"), to: clip)
        func stored() throws -> ObservedVideo { try XCTUnwrap(try LibraryStore(library: library).videos(onDay: "2024-05-11").first) }
        func scan(fullPass: Bool) throws -> LibraryScan.Summary {
            var options = AnalysisOptions()
            options.timeZone = TimeZone(identifier: "UTC")!
            options.coarseToFine = !fullPass
            return try LibraryScan(library: library, options: options).run([videos.path])
        }
        XCTAssertEqual(try scan(fullPass: false).analysed, 1)
        let stretches = try XCTUnwrap(try stored().stretches)
        let outside = try XCTUnwrap(
            stretches.isEmpty ? nil : (0..<28).map(Double.init).first { t in !stretches.contains { $0.overlaps(t..<(t + 1)) } })
        let choices = try LibraryChoices(library: library, person: LibraryStore.noOne)
        try choices.pin(day: "2024-05-11", file: clip.path, start: outside)
        let days = try LibraryDays(library: library, rules: Judgement.Rules(), lookFor: .noOne)
        var report: DayReport?
        try days.forEachDay { report = $0 }
        XCTAssertEqual(report?.status, .pinned, "\(outside) s, outside \(stretches)")
        XCTAssertEqual(report?.pick?.start, outside)
        // A film of clips longer than any stretch holds still has its second.
        var long = Judgement.Rules()
        long.windowLength = 10
        XCTAssertLessThan(stretches.map { $0.upperBound - $0.lowerBound }.max() ?? 0, 10)
        try choices.automatic(day: "2024-05-11")
        var longReport: DayReport?
        try LibraryDays(library: library, rules: long, lookFor: .noOne).forEachDay { longReport = $0 }
        XCTAssertEqual(longReport?.status, .picked)
        XCTAssertEqual(longReport?.pick?.length, 10)
        let full = try scan(fullPass: true)
        XCTAssertEqual([full.analysed, full.reobserved], [1, 1])
        XCTAssertEqual(full.settingsChanged, ["looked at by its keyframes first, now sampled whole"])
        XCTAssertNil(try stored().stretches)
        let again = try scan(fullPass: false)
        XCTAssertEqual([again.analysed, again.unchanged], [0, 1], "a full scan's store is kept")
    }

    func testAnotherTimeZoneDatesAgainWithoutDecoding() throws {
        let root = temporaryFolder(self)
        let videos = root.appendingPathComponent("videos"), library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        // Created at 22:30 UTC on 2024-05-17: that day in UTC, the next in Berlin.
        let clip = videos.appendingPathComponent("evening.mp4")
        try FileManager.default.copyItem(at: Fixtures.url("analysis/midnight_utc.mp4"), to: clip)
        XCTAssertEqual(try scan(videos, library: library).analysed, 1)
        let utcDays = try LibraryStore(library: library).days()
        let berlin = try scan(videos, library: library, zone: "Europe/Berlin")
        XCTAssertEqual([berlin.analysed, berlin.unchanged], [0, 1], "a time zone changes the day, not the frames")
        let berlinDays = try LibraryStore(library: library).days()
        XCTAssertEqual(berlin.redated, utcDays == berlinDays ? 0 : 1)
        XCTAssertNotEqual(utcDays, berlinDays, "the fixture is dated near midnight UTC")
        XCTAssertEqual(try scan(videos, library: library, zone: "Europe/Berlin").redated, 0, "dated in Berlin already")
    }
}
