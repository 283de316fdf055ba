import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `glimt-pure folders` and `scan` with no folder: the watched folders, kept in a small text file
/// a person may edit, whose every bad line is one line naming the file and the line.
final class WatchedFoldersTests: CLITestCase {
    private func folder(_ name: String) throws -> URL {
        let url = library.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func testFoldersAreAddedListedAndRemovedKeepingTheRestOfTheFile() throws {
        let none = try glimt("folders", "list")
        XCTAssertEqual(none.status, 0, none.err)
        XCTAssertEqual(none.out, "no folders are watched (add one: glimt-pure folders add DIR; kept in \(config.path))\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: config.deletingLastPathComponent().path), "listing creates nothing")

        let videos = try folder("videos"), nas = try folder("nas")
        let add = try glimt(["folders", "add", "videos", nas.path + "/"], in: library)
        XCTAssertEqual(add.status, 0, add.err)
        XCTAssertEqual(add.out, "watching \(videos.path)\nwatching \(nas.path)\n", "absolute, as the scan will see them")
        XCTAssertEqual(try glimt("folders", "add", videos.path).out, "\(videos.path) is watched already\n")
        let notThere = try glimt("folders", "add", library.appendingPathComponent("nope").path)
        XCTAssertEqual(notThere.status, 1)
        XCTAssertEqual(notThere.err, "glimt-pure folders: \(library.appendingPathComponent("nope").path): no such file\n")
        let aFile = library.appendingPathComponent("file.mp4")
        try Data().write(to: aFile)
        XCTAssertTrue(try glimt("folders", "add", aFile.path).err.hasSuffix("file.mp4: is not a folder (watch the folder it is in)\n"))

        // By hand: a comment, a blank line, a path from ~/ with spaces in it.
        let home = try folder("home")
        _ = try folder("home/Phone videos")
        var text = try String(contentsOf: config, encoding: .utf8)
        text += "\n   # the phone's, copied weekly\nfolder   ~/Phone videos  \n"
        try text.write(to: config, atomically: true, encoding: .utf8)
        let list = try glimt(["folders", "list"], environment: ["HOME": home.path])
        XCTAssertEqual(list.out, "\(videos.path)\n\(nas.path)\n\(home.path)/Phone videos\n")
        try FileManager.default.removeItem(at: nas)
        let json = try glimt(["folders", "list", "--json"], environment: ["HOME": home.path])
        let listed = try JSONDecoder().decode([WatchedFolders.Folder].self, from: Data(json.out.utf8))
        XCTAssertEqual(listed.map(\.present), [true, false, true], "a NAS not mounted is marked")
        XCTAssertTrue(try glimt(["folders", "list"], environment: ["HOME": home.path]).out.contains("\(nas.path)  (not there now)\n"))

        // Removing one leaves every other byte, the comment included; one not watched is said.
        let removed = try glimt(["folders", "remove", nas.path], environment: ["HOME": home.path])
        XCTAssertEqual(removed.out, "no longer watching \(nas.path)\n", removed.err)
        XCTAssertEqual(try String(contentsOf: config, encoding: .utf8), text.replacingOccurrences(of: "folder \(nas.path)\n", with: ""))
        let again = try glimt(["folders", "remove", nas.path], environment: ["HOME": home.path])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.err, "glimt-pure folders: \(nas.path): is not a watched folder (see: glimt-pure folders list)\n")
        XCTAssertEqual(try glimt("folders", "move").status, 64)
    }

    func testABadLineIsOneLineNamingTheFileAndTheLine() throws {
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        let cases: [(String, String)] = [
            ("folder /a\nfolders /b\n", "line 2: 'folders' is not a setting (a line is 'folder /absolute/path', or a comment after #)"),
            ("# mine\nfolder videos\n", "line 2: 'videos' is not an absolute path (write it from /, or from ~/)"),
            ("folder\n", "line 1: 'folder' needs the folder's path after it"),
            ("folder /a\n\nfolder /b/../a/\n", "line 3: the folder /a is named twice (first on line 1)"),
        ]
        for (text, reason) in cases {
            try text.write(to: config, atomically: true, encoding: .utf8)
            for args in [["folders", "list"], ["scan", "-q"], ["folders", "add", library.path]] {
                let run = try glimt(args)
                XCTAssertEqual(run.status, 1, "\(args): \(run.err)")
                XCTAssertEqual(run.err, "glimt-pure \(args[0]): \(config.path): \(reason)\n", "\(args)")
            }
        }
        // ~ needs an absolute HOME (never the user database).
        try "folder ~/videos\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try glimt(["folders", "list"], unsetting: ["HOME"])
        XCTAssertEqual(
            run.err,
            "glimt-pure folders: \(config.path): line 1: '~/videos' starts with ~, and HOME is not an absolute folder; write the path in full\n")
    }

    /// Settings written on other systems: CRLF line ends and a UTF-8 byte order mark are read as
    /// the same folders, and `folders add` keeps them; old Mac line ends (CR alone), UTF-16 and a
    /// NUL byte are refused in one line, never read as one odd folder.
    func testSettingsFromOtherSystemsAreReadTheSameOrRefusedInOneLine() throws {
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        let videos = try folder("videos"), nas = try folder("nas"), more = try folder("more")
        let lines = "# mine\nfolder \(videos.path)\nfolder \(nas.path)\n"
        for (name, bytes) in [
            ("CRLF", Data(lines.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("BOM", Data([0xEF, 0xBB, 0xBF]) + Data(lines.utf8)),
            ("BOM and CRLF", Data([0xEF, 0xBB, 0xBF]) + Data(lines.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
        ] {
            try bytes.write(to: config)
            let list = try glimt("folders", "list")
            XCTAssertEqual(list.status, 0, "\(name): \(list.err)")
            XCTAssertEqual(list.out, "\(videos.path)\n\(nas.path)\n", name)
            XCTAssertEqual(try glimt("folders", "add", more.path).status, 0, name)
            XCTAssertEqual(try glimt("folders", "list").out, "\(videos.path)\n\(nas.path)\n\(more.path)\n", name)
            let kept = try Data(contentsOf: config)
            XCTAssertEqual(kept.prefix(bytes.count), bytes, "\(name): every byte before the new line is kept")
            XCTAssertEqual(try glimt("folders", "remove", nas.path).status, 0, name)
            XCTAssertEqual(try glimt("folders", "list").out, "\(videos.path)\n\(more.path)\n", name)
        }
        let refused: [(String, Data, String)] = [
            (
                "CR line ends", Data(lines.replacingOccurrences(of: "\n", with: "\r").utf8),
                "line 1 holds a carriage return inside it (old Mac line ends?); save the file with LF or CRLF line ends"
            ),
            ("UTF-16", lines.data(using: .utf16)!, "is UTF-16 text; glimt reads its settings as UTF-8 (save it as UTF-8)"),
            ("UTF-16LE", lines.data(using: .utf16LittleEndian)!, "is UTF-16 text; glimt reads its settings as UTF-8 (save it as UTF-8)"),
            ("NUL", Data("folder /a\u{0}b\n".utf8), "line 1 holds a NUL byte; this is not a settings file as glimt writes it"),
        ]
        for (name, bytes, reason) in refused {
            try bytes.write(to: config)
            for args in [["folders", "list"], ["folders", "add", more.path]] {
                let run = try glimt(args)
                XCTAssertEqual(run.status, 1, "\(name) \(args): \(run.err)")
                XCTAssertEqual(run.err, "glimt-pure folders: \(config.path): \(reason)\n", "\(name) \(args)")
            }
            XCTAssertEqual(try Data(contentsOf: config), bytes, "\(name): the file is left as it was")
        }
    }

    /// The settings are found like the library: XDG_CONFIG_HOME when absolute, else HOME's .config.
    func testTheSettingsAreFoundFromTheEnvironmentOnly() throws {
        let home = try folder("home"), videos = try folder("videos")
        let run = try glimt(["folders", "add", videos.path], environment: ["HOME": home.path, "XDG_CONFIG_HOME": "relative"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".config/glimt/config").path))
        let nowhere = try glimt(["folders", "list"], unsetting: ["HOME", "XDG_CONFIG_HOME"])
        XCTAssertEqual(nowhere.status, 1)
        XCTAssertEqual(nowhere.err, "glimt-pure folders: cannot tell where the settings are: set HOME or XDG_CONFIG_HOME to an absolute folder\n")
    }

    func testScanWithNoFolderScansTheWatchedOnesAndSaysWhenThereAreNone() throws {
        let none = try glimt("scan")
        XCTAssertEqual(none.status, 64)
        XCTAssertEqual(
            none.err,
            "glimt-pure scan: no folders to scan: name them (glimt-pure scan FOLDER|VIDEO...) or watch them "
                + "(glimt-pure folders add DIR, kept in \(config.path))\n")
        let videos = try folder("videos"), more = try folder("more")
        try GeneratedClips.write(Array(GeneratedClips.days.prefix(2)), to: videos.path)
        try GeneratedClips.write(Array(GeneratedClips.days.suffix(1)), to: more.path)
        XCTAssertEqual(try glimt("folders", "add", videos.path, more.path).status, 0)
        let scan = try glimt("scan", "--timezone", "UTC", "--json")
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertTrue(scan.err.hasPrefix("glimt-pure scan: scanning the 2 watched folders (\(config.path))\n"), scan.err)
        XCTAssertEqual(try JSONDecoder().decode(LibraryScan.Summary.self, from: Data(scan.out.utf8)).analysed, 3)
        XCTAssertEqual(try glimt("scan", "-q", "--timezone", "UTC").err, "", "-q: not a word")
    }
}
