import Foundation
import GlimtPure
import TestSupport
import XCTest

/// A library split across machines: N sharded scans, each into a library of its own, merged,
/// are the one unsharded scan; a merge done twice changes nothing; paths that differ between
/// machines are mapped; the other library's choices come only when asked.
final class ShardMergeTests: CLITestCase {
    private var videos: URL { library.appendingPathComponent("videos") }
    private func lib(_ name: String) -> URL { library.appendingPathComponent(name) }
    private func dump(_ name: String) throws -> String { try LibraryStore(library: lib(name)).dump() }

    private func clips() throws -> [String] {
        let faces = ["yunet/obama.png", "yunet/biden.png", "yunet/obama2.png", "yunet/obama3.png", "yunet/obama4.png", "yunet/biden2.png"]
        return try GeneratedClips.write(
            (0..<6).map { GeneratedClips.Clip(day: String(format: "202405%02d", 1 + $0 / 2), face: faces[$0]) }, to: videos.path)
    }

    func testTwoShardsMergedAreTheUnshardedScan() throws {
        let paths = try clips()
        // A copy of one video: the same content, so the same shard, counted once there.
        try FileManager.default.copyItem(atPath: paths[0], toPath: videos.appendingPathComponent("zz-copy.mp4").path)
        XCTAssertEqual(try glimt("scan", videos.path, "--library", lib("whole").path, "--timezone", "UTC", "-q", "--jobs", "1").status, 0)

        // Two workers at once, as `parallel glimt-pure scan DIR --shard {}/2 --library lib-{} ::: 1 2` runs them.
        let workers = try (1...2).map { k in
            try start(["scan", videos.path, "--shard", "\(k)/2", "--library", lib("lib-\(k)").path, "--timezone", "UTC", "--json"])
        }
        let summaries = try workers.map { p -> LibraryScan.Summary in
            let run = finish(p)
            XCTAssertEqual(run.status, 0, run.err)
            return try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(run.out.utf8))
        }
        XCTAssertEqual(summaries.map(\.found), [7, 7], "each worker finds every file")
        XCTAssertEqual(summaries.map(\.analysed).reduce(0, +), paths.count, "each video analysed by one worker")
        XCTAssertTrue(summaries.allSatisfy { $0.analysed > 0 }, "both shards have work: \(summaries.map(\.analysed))")
        XCTAssertEqual(summaries.map(\.duplicates.count).reduce(0, +), 1, "the copy meets its original in one shard")
        XCTAssertEqual(summaries[0].otherShards, summaries[1].analysed + (summaries[1].duplicates.count), "\(summaries)")

        let merged = try glimt("merge", lib("lib-1").path, lib("lib-2").path, "--library", lib("merged").path)
        XCTAssertEqual(merged.status, 0, merged.err)
        XCTAssertTrue(merged.out.hasPrefix("merged \(lib("lib-1").path): \(summaries[0].analysed) videos added ("), merged.out)
        XCTAssertEqual(try dump("merged"), try dump("whole"), "the merged store equals one unsharded scan")
        // Faces followed between samples have no embedding of their own: each points to the face
        // it borrows from by frame and face of the same video, which the merge keeps as they are,
        // so that reading lends each its source's embedding as in the unsharded store.
        let borrowed = try dump("merged").split(separator: "\n").filter { line in
            let columns = line.split(separator: "|", omittingEmptySubsequences: false)
            return line.hasPrefix("  face ") && columns[8].isEmpty && !columns[9].isEmpty
        }
        XCTAssertGreaterThan(borrowed.count, 10, "the clips' faces are followed, so the merge carries borrowed faces")
        for day in try LibraryStore(library: lib("whole")).days() {
            let (whole, merged) = try (
                LibraryStore(library: lib("whole")).videos(onDay: day), LibraryStore(library: lib("merged")).videos(onDay: day)
            )
            XCTAssertEqual(
                merged.flatMap { $0.frames.flatMap { $0.faces.map { $0.embedding?.values } } },
                whole.flatMap { $0.frames.flatMap { $0.faces.map { $0.embedding?.values } } }, day)
            XCTAssertTrue(
                merged.allSatisfy { $0.frames.allSatisfy { $0.faces.allSatisfy { $0.embedding != nil } } }, "every face lent an embedding: \(day)")
        }

        // Merging again changes nothing, not even the store's history.
        let again = try glimt("merge", lib("lib-2").path, "--library", lib("merged").path)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(
            again.out.hasPrefix("merged \(lib("lib-2").path): 0 videos added (0 frames, 0 faces), \(summaries[1].analysed) already here"), again.out)
        XCTAssertEqual(try dump("merged"), try dump("whole"))
        XCTAssertEqual(try LibraryStore(library: lib("merged")).history(kind: .merge).count, 2, "one record per merge that added videos")
        // The merged library scans as the whole one does: nothing to analyse.
        let rescan = try glimt("scan", videos.path, "--library", lib("merged").path, "--timezone", "UTC", "--json")
        let summary = try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(rescan.out.utf8))
        XCTAssertEqual([summary.analysed, summary.unchanged, summary.duplicates.count], [0, paths.count, 1], rescan.err)

        // Merging a library into itself, or one that is not there, is one line.
        for (other, reason) in [(lib("merged"), "is the library being merged into"), (lib("nope"), "no library in")] {
            let run = try glimt("merge", other.path, "--library", lib("merged").path)
            XCTAssertEqual(run.status, 1, run.err)
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, run.err)
            XCTAssertTrue(run.err.contains(reason), run.err)
        }
        XCTAssertEqual(try glimt("merge", lib("lib-1").path, "--path-map", "relative=/x", "--library", lib("merged").path).status, 64)
    }

    /// docs/shards.md's local split, run as it is written there: GNU parallel runs four sharded
    /// scans at once, each into its own library, and merging the four gives the unsharded scan.
    func testGNUParallelsFourShardsMergedAreTheUnshardedScan() throws {
        guard let parallel = ["/usr/bin/parallel", "/usr/local/bin/parallel"].first(where: FileManager.default.isExecutableFile) else {
            throw ContinuousIntegration.cannotRun("no GNU parallel (Debian's parallel; tools/test.sh installs it)")
        }
        _ = try clips()
        XCTAssertEqual(try glimt("scan", videos.path, "--library", lib("whole").path, "--timezone", "UTC", "-q").status, 0)
        let shards = library.appendingPathComponent("glimt-shards")
        // glimt-pure on the PATH, as installed; parallel's own files in this test's HOME.
        let run = try GlimtBinary.run(
            [
                "glimt-pure", "scan", videos.path, "--shard", "{}/4", "--library", shards.path + "/{}", "--timezone", "UTC", "-q",
                ":::", "1", "2", "3", "4",
            ],
            environment: [
                "PATH": Self.binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": library.path,
                "XDG_DATA_HOME": library.path,
            ],
            binary: URL(fileURLWithPath: parallel))
        XCTAssertEqual(run.status, 0, run.out + run.err)
        let analysed = try (1...4).map { try LibraryStore(library: shards.appendingPathComponent("\($0)")).counts().videos }
        XCTAssertEqual(analysed.reduce(0, +), 6, "each video in one shard: \(analysed)")
        XCTAssertGreaterThan(analysed.filter { $0 > 0 }.count, 1, "the work is spread: \(analysed)")
        let merged = try glimt(["merge"] + (1...4).map { shards.appendingPathComponent("\($0)").path } + ["--library", lib("merged").path])
        XCTAssertEqual(merged.status, 0, merged.err)
        XCTAssertEqual(try dump("merged"), try dump("whole"), "the merged store equals one unsharded scan")
    }

    /// The same folder mounted elsewhere on another machine: with --path-map the merged videos
    /// carry this machine's paths, so the next scan here finds them unchanged, decoding nothing.
    func testPathsFromAnotherMountAreMapped() throws {
        let paths = try clips()
        XCTAssertEqual(try glimt("scan", videos.path, "--library", lib("nas").path, "--timezone", "UTC", "-q").status, 0)
        let mounted = library.appendingPathComponent("mnt/family")
        try FileManager.default.createDirectory(at: mounted.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: videos, to: mounted)
        let run = try glimt("merge", lib("nas").path, "--path-map", "\(videos.path)=\(mounted.path)", "--library", lib("here").path)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("\(paths.count) videos added") && run.out.contains(", \(paths.count) paths mapped"), run.out)
        let rescan = try glimt("scan", mounted.path, "--library", lib("here").path, "--timezone", "UTC", "--json")
        let summary = try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(rescan.out.utf8))
        XCTAssertEqual([summary.analysed, summary.unchanged, summary.moved], [0, paths.count, 0], rescan.err)
    }

    /// Pins and exclusions are the person's: a merge leaves them out unless --choices asks.
    func testTheOtherLibrarysChoicesComeOnlyWhenAsked() throws {
        let paths = try clips()
        XCTAssertEqual(try glimt("scan", videos.path, "--library", lib("theirs").path, "--timezone", "UTC", "-q").status, 0)
        XCTAssertEqual(try glimt("pick", "2024-05-01", "--video", paths[0], "--at", "0.2", "--library", lib("theirs").path).status, 0)
        XCTAssertEqual(try glimt("exclude", "2024-05-02", "--library", lib("theirs").path).status, 0)
        XCTAssertEqual(try glimt("exclude", paths[5], "--library", lib("theirs").path).status, 0)
        XCTAssertEqual(try glimt("merge", lib("theirs").path, "--library", lib("mine").path).status, 0)
        let mine = try LibraryStore(library: lib("mine")).choices(person: LibraryStore.noOne)
        XCTAssertTrue(mine.pins.isEmpty && mine.excludedDays.isEmpty && mine.excludedVideos.isEmpty, "no choices without --choices")
        let asked = try glimt("merge", lib("theirs").path, "--choices", "--library", lib("mine").path)
        XCTAssertEqual(asked.status, 0, asked.err)
        XCTAssertTrue(asked.out.contains("choices: 1 pins, 1 excluded days, 1 excluded videos"), asked.out)
        let now = try LibraryStore(library: lib("mine")).choices(person: LibraryStore.noOne)
        XCTAssertEqual(now.pins["2024-05-01"]?.start, 0.2)
        XCTAssertEqual(now.excludedDays, ["2024-05-02"])
        XCTAssertEqual(now.excludedVideos.count, 1)
        XCTAssertTrue(
            try glimt("merge", lib("theirs").path, "--choices", "--library", lib("mine").path).out.contains(
                "choices: 0 pins, 0 excluded days, 0 excluded videos"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: lib("mine").appendingPathComponent("references.json").path), "references never come")
    }
}
