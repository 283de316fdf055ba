import Foundation
import XCTest

/// Every help text, checked whole against the committed files in `Golden/` (as
/// swift-argument-parser does): a changed option, default or wording shows up as a diff to
/// review. After an intended change, `GLIMT_UPDATE_GOLDEN=1 tools/test.sh --filter HelpTests`
/// rewrites them.
final class HelpTests: CLITestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let commands = [
        "film", "scan", "folders", "status", "merge", "days", "show", "calendar", "review", "pick", "exclude", "include", "date", "analyze", "faces",
        "reference", "people", "embed",
        "completions", "manual",
    ]

    /// A new command gets its golden help too: the list above must be the one `--help` prints.
    func testEveryCommandInTheHelpHasAGoldenFile() throws {
        let help = try glimt("--help").out
        let section = help.components(separatedBy: "COMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
        let listed = section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" }
        XCTAssertEqual(listed, Self.commands)
    }

    func testEveryHelpTextMatchesItsGoldenFile() throws {
        var texts = ["help": try glimt("--help")]
        for command in Self.commands { texts["help-\(command)"] = try glimt("help", command) }
        let update = ProcessInfo.processInfo.environment["GLIMT_UPDATE_GOLDEN"] == "1"
        for (name, run) in texts.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(run.status, 0, "\(name): \(run.err)")
            let file = Self.golden.appendingPathComponent("\(name).txt")
            if update {
                try FileManager.default.createDirectory(at: Self.golden, withIntermediateDirectories: true)
                try run.out.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            let want = try String(contentsOf: file, encoding: .utf8)
            XCTAssertEqual(run.out, want, "\(name) differs from \(file.path)")
        }
    }

    /// `review` writes a folder: its -y says what it does to one, not to "an output file".
    func testReviewsOverwriteSpeaksOfItsFolder() throws {
        let help = try glimt("help", "review").out.replacingOccurrences(of: "\n                         ", with: " ")
        let overwrite = try XCTUnwrap(help.split(separator: "\n").first { $0.hasPrefix("  -y, --overwrite") }, help)
        XCTAssertTrue(overwrite.contains("into a folder that holds other files and no review"), String(overwrite))
        XCTAssertFalse(overwrite.contains("output file"), String(overwrite))
    }

    func testCommandHelpAndHelpCommandAgree() throws {
        for command in Self.commands {
            XCTAssertEqual(try glimt(command, "--help").out, try glimt("help", command).out, "'\(command) --help' and 'help \(command)'")
        }
    }
}
