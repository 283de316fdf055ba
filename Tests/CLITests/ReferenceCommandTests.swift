import Foundation
import XCTest

/// `glimt-pure reference add`: no face twice, no stranger without --force, and two adds at once
/// both land.
final class ReferenceCommandTests: CLITestCase {
    private func references(_ args: String...) throws -> [[String: Any]] {
        let list = try glimt(["reference", "list", "--json"] + args)
        XCTAssertEqual(list.status, 0, list.err)
        return try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as! [[String: Any]]
    }

    private func assertOneLineError(_ run: Run, saying parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 1, run.err, file: file, line: line)
        XCTAssertEqual(run.err.split(separator: "\n").count, 1, "one line: \(run.err)", file: file, line: line)
        for part in parts { XCTAssertTrue(run.err.contains(part), "says '\(part)': \(run.err)", file: file, line: line) }
    }

    func testTheSameFaceTwiceAndAStrangerAreRefused() throws {
        let obama = fixture("yunet/obama.png"), biden = fixture("yunet/biden.png")
        XCTAssertEqual(try glimt("reference", "add", obama).status, 0)
        assertOneLineError(try glimt("reference", "add", obama, "--force"), saying: [obama, "face 1 is already reference 1"])
        assertOneLineError(try glimt("reference", "add", biden), saying: [biden, "best cosine", "with reference 1", "add --force"])
        XCTAssertEqual(try references().count, 1)
        let forced = try glimt("reference", "add", biden, "--force")
        XCTAssertEqual(forced.status, 0, forced.err)
        XCTAssertEqual(try references().map { $0["id"] as? Int }, [1, 2])
    }

    /// Each round, two processes add a different photo of the same person to a fresh library at
    /// the same moment: the second one's checks and write must see the first one's reference.
    func testTwoAddsAtOnceBothLand() throws {
        let photos = [fixture("yunet/obama.png"), fixture("yunet/obama2.png")]
        for round in 1...10 {
            let folder = library.appendingPathComponent("round-\(round)").path
            let adds = try photos.map { try start(["reference", "add", $0, "--library", folder]) }
            for run in adds.map(finish) { XCTAssertEqual(run.status, 0, "round \(round): \(run.err)") }
            let refs = try references("--library", folder)
            XCTAssertEqual(refs.count, 2, "round \(round): \(refs.map { $0["photo"] ?? "?" })")
            XCTAssertEqual(Set(refs.compactMap { $0["id"] as? Int }), [1, 2], "round \(round)")
            XCTAssertEqual(
                Set(refs.compactMap { $0["photo"] as? String }), Set(photos.map { URL(fileURLWithPath: $0).standardizedFileURL.path }),
                "round \(round)")
        }
    }

    /// The same face added twice at once: the check runs under the lock, so exactly one gets in.
    func testTwoAddsOfOneFaceAtOnceLetOneIn() throws {
        let photo = fixture("yunet/obama.png")
        for round in 1...5 {
            let folder = library.appendingPathComponent("round-\(round)").path
            let runs = try (0..<2).map { _ in try start(["reference", "add", photo, "--library", folder]) }.map(finish)
            XCTAssertEqual(runs.map(\.status).sorted(), [0, 1], "round \(round): \(runs.map(\.err))")
            XCTAssertTrue(runs.contains { $0.err.contains("face 1 is already reference 1") }, "round \(round): \(runs.map(\.err))")
            XCTAssertEqual(try references("--library", folder).count, 1, "round \(round)")
        }
    }

    /// A photo of several people and no face named: never a guess, the same exit status (2) and
    /// the same list of faces whether the photo is added or given to one run with --ref.
    func testSeveralFacesAndNoChoiceIsExitTwoEverywhere() throws {
        let group = fixture("yunet/two_people.png")
        let add = try glimt("reference", "add", group)
        XCTAssertEqual(add.status, 2, add.err)
        XCTAssertTrue(add.err.contains("has 2 faces; choose one with --face N"), add.err)
        XCTAssertTrue(add.err.contains("  face 2: box"), add.err)
        let film = try glimt("film", fixture("analysis/two_people.mp4"), "--ref", group, "--out", library.appendingPathComponent("f.mp4").path)
        XCTAssertEqual(film.status, 2, film.err)
        XCTAssertTrue(film.err.contains("has 2 faces; choose one with \(group):N"), film.err)
        XCTAssertTrue(film.err.contains("  face 2: box"), film.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.appendingPathComponent("f.mp4").path))
    }
}
