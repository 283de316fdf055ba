import Foundation
import XCTest

/// The built `glimt-pure` binary, end to end, as a user runs it: help text, exit codes, JSON,
/// one-line errors that name the file.
final class CLITests: XCTestCase {
    struct Run {
        let status: Int32
        let out: String
        let err: String
    }

    static let binary: URL = Bundle.main.bundleURL.appendingPathComponent("glimt-pure")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("GlimtPureTests/Fixtures")

    private var library: URL!

    override func setUpWithError() throws {
        library = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: library) }

    @discardableResult
    func glimt(_ args: String...) throws -> Run {
        let p = try start(args)
        let out = p.standardOutput as! Pipe, err = p.standardError as! Pipe
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    func start(_ args: [String]) throws -> Process {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_DATA_HOME"] = library.path
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return p
    }

    func fixture(_ path: String) -> String { Self.fixtures.appendingPathComponent(path).path }

    func testHelpListsEveryCommandAndVersionPrints() throws {
        let help = try glimt("--help")
        XCTAssertEqual(help.status, 0)
        for command in ["film", "analyze", "faces", "reference", "embed", "help"] { XCTAssertTrue(help.out.contains("\n  \(command) "), "help lists \(command)") }
        XCTAssertTrue(help.out.contains("USAGE: glimt-pure <command>"))
        let version = try glimt("--version")
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.out.hasPrefix("glimt-pure "))
        let embedHelp = try glimt("help", "embed")
        XCTAssertEqual(embedHelp.status, 0)
        XCTAssertTrue(embedHelp.out.contains("USAGE: glimt-pure embed IMAGE"))
        XCTAssertEqual(try glimt("embed", "--help").out, embedHelp.out, "'embed --help' and 'help embed' agree")
    }

    func testUsageMistakesExitWith64AndSayWhatToDo() throws {
        let unknown = try glimt("fly")
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.err.contains("unknown command 'fly'"))
        let badOption = try glimt("faces", "--bogus", "x.jpg")
        XCTAssertEqual(badOption.status, 64)
        XCTAssertTrue(badOption.err.contains("unknown option --bogus"))
        XCTAssertEqual(try glimt("embed").status, 64)
    }

    func testEmbedPrintsTheSFaceEmbeddingAsJSON() throws {
        let r = try glimt("embed", fixture("sface/obama.png"))
        XCTAssertEqual(r.status, 0, r.err)
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        let got = (json["embedding"] as! [NSNumber]).map(\.doubleValue)
        XCTAssertEqual(got.count, 128)
        // Decoded, so a change to the fixture's schema fails this test rather than the test process.
        struct GoldenEntry: Decodable { let file: String; let embedding: [Double] }
        let entries = try JSONDecoder().decode([GoldenEntry].self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("sface/golden.json")))
        let want = try XCTUnwrap(entries.first { $0.file == "obama.png" }, "sface/golden.json has no obama.png").embedding
        let dot = zip(got, want).reduce(0) { $0 + $1.0 * $1.1 }
        let norm = want.reduce(0) { $0 + $1 * $1 }.squareRoot()
        XCTAssertGreaterThan(dot / norm, 0.9999)
    }

    func testBadFilesGetOneLineErrorsAndTheOthersStillRun() throws {
        let text = library.appendingPathComponent("notes.png")
        try "not a picture".write(to: text, atomically: true, encoding: .utf8)
        let r = try glimt("embed", text.path, fixture("sface/biden.png"), library.appendingPathComponent("missing.jpg").path)
        XCTAssertEqual(r.status, 1)
        let lines = r.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.err)
        XCTAssertTrue(lines[0].contains(text.path))
        XCTAssertTrue(lines[1].contains("missing.jpg"))
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [[String: Any]]
        XCTAssertEqual(json.count, 1, "the good file is still embedded")
        let wrongSize = try glimt("embed", fixture("yunet/obama.png"))
        XCTAssertEqual(wrongSize.status, 1)
        XCTAssertTrue(wrongSize.err.contains("112x112"), wrongSize.err)
    }

    func testFacesAndReferencesEndToEnd() throws {
        let faces = try glimt("faces", "--json", fixture("yunet/two_people.png"))
        XCTAssertEqual(faces.status, 0, faces.err)
        let photo = try JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as! [String: Any]
        XCTAssertEqual((photo["faces"] as! [Any]).count, 2)

        let refused = try glimt("reference", "add", fixture("yunet/two_people.png"))
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.err.contains("has 2 faces; choose one with --face N"), refused.err)
        XCTAssertTrue(refused.err.contains("face 2:"))
        XCTAssertEqual(try glimt("reference", "add", fixture("yunet/two_people.png"), "--face", "2").status, 0)
        let list = try glimt("reference", "list", "--json")
        let refs = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as! [[String: Any]]
        XCTAssertEqual(refs.count, 1)
        XCTAssertEqual(refs[0]["face"] as? Int, 2)
        let matched = try glimt("faces", "--match", fixture("yunet/two_people.png"))
        XCTAssertTrue(matched.out.contains("(same person)"), matched.out)
        XCTAssertEqual(try glimt("reference", "remove", "1").status, 0)
        XCTAssertEqual(try glimt("reference", "remove", "1").status, 1)
    }

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
