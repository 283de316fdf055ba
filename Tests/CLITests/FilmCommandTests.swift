import Foundation
import XCTest

/// `glimt-pure analyze` and `glimt-pure film`: saved picks re-rendered, killed renders.
final class FilmCommandTests: CLITestCase {
    /// analyze --json, edit a pick, render it with --picks: the re-render without re-analysis.
    func testAnalyzeThenRenderEditedPicks() throws {
        let clip = fixture("analysis/two_people.mp4")
        let analysis = try glimt("analyze", clip, "--no-refs", "--json", "--timezone", "UTC")
        XCTAssertEqual(analysis.status, 0, analysis.err)
        var json = try JSONSerialization.jsonObject(with: Data(analysis.out.utf8)) as! [String: Any]
        var picks = json["picks"] as! [[String: Any]]
        XCTAssertEqual(picks.count, 1)
        picks[0]["start"] = 2.5
        json["picks"] = picks
        let edited = library.appendingPathComponent("picks.json")
        try JSONSerialization.data(withJSONObject: json).write(to: edited)
        let out = library.appendingPathComponent("edited.mp4").path
        let film = try glimt("film", "--picks", edited.path, "--out", out, "--size", "180x320", "--mute")
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.out.contains("at 2.50 s"), film.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        let bad = try glimt("film", "--picks", fixture("sface/golden.json"), "--out", out)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("not an 'analyze --json' result"), bad.err)
    }

    /// A render killed midway leaves no file under the output name, whether the process gets to
    /// clean up (SIGTERM) or not (SIGKILL).
    func testKillingARenderMidwayLeavesNoFilm() throws {
        let clip = fixture("analysis/crowd_a_6to7.mp4")
        let box: [String: Any] = ["x": 0, "y": 0, "width": 150, "height": 270]
        let parts: [String: Any] = ["aesthetics": 1, "sharpness": 1, "face": 1]
        let picks: [[String: Any]] = (1...9).map { d in
            ["day": "2024-05-0\(d)", "video": clip, "start": 0.0, "length": 8.0, "score": 1, "parts": parts, "crop": box, "zoom": 1,
             "dateSource": "file name", "candidates": 1]
        }
        let file = library.appendingPathComponent("long.json")
        try JSONSerialization.data(withJSONObject: ["picks": picks]).write(to: file)
        for signal in [SIGTERM, SIGKILL] {
            let folder = library.appendingPathComponent("out-\(signal)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let out = folder.appendingPathComponent("film.mp4")
            let p = try start(["film", "--picks", file.path, "--out", out.path, "--seconds", "8", "--quality", "16"])
            // Wait until the render has begun writing its temporary file.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: folder.path)).isEmpty, p.isRunning {
                usleep(20_000)
            }
            XCTAssertTrue(p.isRunning, "the render should still be going")
            usleep(300_000)
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no film under the output name after signal \(signal)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            if signal == SIGTERM { XCTAssertEqual(left, [], "SIGTERM also removes the temporary file") }
            XCTAssertTrue(left.allSatisfy { $0.hasPrefix(".") }, "only a hidden temporary name may remain: \(left)")
        }
    }
}
