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
        FileManager.default.createFile(atPath: picks.path, contents: nil)
        argv.standardOutput = try FileHandle(forWritingTo: picks)
        argv.environment = ["XDG_DATA_HOME": library.path]
        // Process passes arguments as Swift strings, so hand the raw name through a shell variable.
        argv.executableURL = URL(fileURLWithPath: "/bin/sh")
        argv.arguments = ["-c", "\"$0\" analyze \"$(printf '\(folder.path)/caf\\351 party.mp4')\" --no-refs --json --timezone UTC", CLITestCase.binary.path]
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
        sh.arguments = ["-c", "\"$0\" film --picks \"$1\" --out \"$(printf '\(library.path)/f\\374lm.mp4')\" --size 180x320 --mute -q", CLITestCase.binary.path, picks.path]
        try sh.run()
        sh.waitUntilExit()
        XCTAssertEqual(sh.terminationStatus, 0)
        XCTAssertTrue(exists(out), "written under the name's own bytes")
    }
}
