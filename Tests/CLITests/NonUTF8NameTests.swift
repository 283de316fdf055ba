import Foundation
import XCTest

/// File names are bytes: a Latin-1 name (`caf\xe9`) is found in a folder, named on the command
/// line, analysed, printed escaped, saved in JSON and rendered from it, and written as `--out`.
final class NonUTF8NameTests: CLITestCase {
    /// Copies `source` to `folder/name` where `name` is raw bytes.
    private func copy(_ source: String, to folder: URL, name: [UInt8]) throws -> [UInt8] {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    private func exists(_ path: [UInt8]) -> Bool {
        var s = stat()
        return (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { stat($0.baseAddress!, &s) } == 0
    }

    func testALatin1NameIsAnalysedPrintedEscapedAndRendered() throws {
        let folder = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let latin1 = try copy(fixture("analysis/midnight_utc.mp4"), to: folder, name: Array("caf".utf8) + [0xE9] + Array(" party.mp4".utf8))

        let run = try glimt("analyze", folder.path, "--no-refs", "--timezone", "UTC")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("2024-05-17  \(folder.path)/caf\\xe9 party.mp4  at "), run.out)

        // Named on the command line as the same bytes (argv), then saved as JSON and rendered back.
        let argv = Process()
        let picks = library.appendingPathComponent("picks.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: picks.path, contents: nil))
        argv.standardOutput = try FileHandle(forWritingTo: picks)
        argv.environment = ["XDG_DATA_HOME": library.path]
        // Process passes arguments as Swift strings, so hand the raw name through a shell variable.
        argv.executableURL = URL(fileURLWithPath: "/bin/sh")
        argv.arguments = [
            "-c", "\"$0\" analyze \"$(printf '\(folder.path)/caf\\351 party.mp4')\" --no-refs --json --timezone UTC", CLITestCase.binary.path,
        ]
        try argv.run()
        argv.waitUntilExit()
        XCTAssertEqual(argv.terminationStatus, 0)
        let saved = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: picks)) as? [String: Any])
        XCTAssertEqual((saved["picks"] as? [[String: Any]])?.count, 1, "the file named by its bytes was analysed")

        let film = try glimt("film", "--picks", picks.path, "--out", library.appendingPathComponent("film.mp4").path, "--size", "180x320", "--mute")
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.out.contains("caf\\xe9 party.mp4"), film.out)
        XCTAssertTrue(exists(latin1), "the input is untouched")

        // An output name with such a byte is written under exactly that name.
        let out = Array(library.path.utf8) + Array("/f".utf8) + [0xFC] + Array("lm.mp4".utf8)
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.environment = ["XDG_DATA_HOME": library.path]
        sh.arguments = [
            "-c", "\"$0\" film --picks \"$1\" --out \"$(printf '\(library.path)/f\\374lm.mp4')\" --size 180x320 --mute -q", CLITestCase.binary.path,
            picks.path,
        ]
        try sh.run()
        sh.waitUntilExit()
        XCTAssertEqual(sh.terminationStatus, 0)
        XCTAssertTrue(exists(out), "written under the name's own bytes")
    }

    /// Control characters in a name (ESC, CR, LF, TAB, DEL, a C1 CSI) never reach the terminal
    /// raw, on stdout or stderr, in any command: each is escaped as stderr's lines escape them, so
    /// a name can neither split a line nor drive the terminal. JSON stays JSON, naming the file.
    func testControlCharactersInANameNeverReachTheTerminalRaw() throws {
        let folder = library.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let odd = "VID_20240501_120000 \u{1b}[31mred\r\nnew\tline\u{7f}\u{9b}2J.mp4"
        let shown = "VID_20240501_120000 \\x1b[31mred\\r\\nnew\\tline\\x7f\\u{9b}2J.mp4"
        let video = folder.appendingPathComponent(odd)
        try FileManager.default.copyItem(atPath: fixture("analysis/two_people.mp4"), toPath: video.path)
        try Data("junk".utf8).write(to: folder.appendingPathComponent("bad \u{1b}]0;title\u{07}.mp4"))

        /// No control byte but the line ends, and every line naming the video names it whole.
        func clean(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
            let bytes = Array(text.utf8)
            for (i, b) in bytes.enumerated() {
                let c1 = b == 0xc2 && i + 1 < bytes.count && (0x80...0x9f).contains(bytes[i + 1])
                XCTAssertFalse(
                    (b < 0x20 && b != 0x0a) || b == 0x7f || c1, "\(what): a raw control byte \(b) at \(i): \(text.debugDescription)", file: file,
                    line: line)
            }
            // Progress lines in a log keep only their first words (see `ProgressLine`).
            for l in text.split(separator: "\n") where l.contains("VID_20240501_120000") && !l.hasPrefix("analysing ") {
                XCTAssertTrue(l.contains(shown), "\(what): the name whole and escaped in \(l.debugDescription)", file: file, line: line)
            }
        }
        let film = library.appendingPathComponent("film.mp4").path
        let runs: [(args: [String], status: Int32)] = [
            (["scan", folder.path, "--timezone", "UTC", "-q"], 1),
            (["days", "--no-refs"], 0),
            (["film", "--no-refs", "--out", film, "--size", "180x320", "--mute", "-q"], 0),
            (["analyze", folder.path, "--no-refs", "--timezone", "UTC"], 1),
            (["film", folder.path, "--no-refs", "--timezone", "UTC", "--out", film, "-y", "--size", "180x320", "--mute"], 0),
            (["show", "2024-05-01", "--no-refs", "--sheet", library.appendingPathComponent("day.jpg").path], 0),
            (["pick", "2024-05-01", "--video", video.path, "--at", "1"], 0),
            (["exclude", video.path], 0),
        ]
        for (args, status) in runs {
            let run = try glimt(args)
            XCTAssertEqual(run.status, status, "\(args[0]): \(run.err)")
            clean(run.out, "\(args[0]) stdout")
            clean(run.err, "\(args[0]) stderr")
            XCTAssertTrue((run.out + run.err).contains(shown) || args[0] == "scan", "\(args[0]) names the video: \(run.out.debugDescription)")
        }
        XCTAssertTrue(try glimt(["analyze", folder.path, "--no-refs", "-q"]).err.contains("bad \\x1b]0;title\\x07.mp4: not a photo or video"))
        // JSON keeps the name as it is, escaped as JSON escapes it.
        for args in [["days", "--no-refs", "--json"], ["analyze", video.path, "--no-refs", "--json", "-q"]] {
            let run = try glimt(args)
            XCTAssertEqual(run.status, 0, run.err)
            XCTAssertFalse(run.out.utf8.contains(0x1b), "\(args[0]) --json escapes ESC")
            let json = try JSONSerialization.jsonObject(with: Data(run.out.utf8))
            XCTAssertTrue("\(json)".contains("31mred"), "\(args[0]) --json is JSON naming the file")
        }
    }
}
