import Foundation
import TestSupport
import XCTest

@testable import GlimtCore
@testable import GlimtPure
@testable import Library

/// A bounded random-mutation loop over what glimt parses itself (see TestSupport's `Mutator`):
/// each mutant must either parse or fail with a one-line error; a trap fails the whole run.
final class EditableFileMutationTests: XCTestCase {
    func testPicksFilesSurviveMutations() throws {
        let box = #"{"x": 10, "y": 0, "width": 150, "height": 270}"#
        let pick =
            #"{"day": "2024-05-04", "video": "/v/a.mp4", "start": 1.5, "length": 1, "score": 0.9, "parts": {"aesthetics": 1, "sharpness": 1, "face": 1}, "crop": \#(box), "zoom": 1, "dateSource": "file name", "candidates": 1}"#
        let original = Array(#"{"picks": [\#(pick), \#(pick.replacingOccurrences(of: "05-04", with: "05-05"))]}"#.utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-fuzz-picks-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(original).write(to: file)
        XCTAssertEqual(try FilmPlan.loadPicks(file.path).picks.count, 2, "the template itself is a valid picks file")
        var m = Mutator(state: 3)
        for i in 0..<1500 {
            try Data(m.mutate(original, within: 0..<original.count)).write(to: file)
            do {
                let loaded = try FilmPlan.loadPicks(file.path)
                for p in loaded.problems { XCTAssertFalse(p.reason.contains("\n"), "picks mutant \(i): \(p.reason)") }
            } catch {
                assertOneLineError(error, "picks mutant \(i)")
            }
        }
    }

    /// The review page's choices file, read as `pick --apply` reads it (encodings, duplicate keys,
    /// then the decoder), and the settings file: each mutant is read or refused in one line.
    func testChoicesFilesAndSettingsSurviveMutations() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-fuzz-choices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("glimt-choices.json").path
        let choices = Array(
            #"{"glimt": "choices", "version": 1, "person": "Emma", "choices": [{"day": "2024-05-01", "action": "pick", "video": "/v/a.mp4", "at": 1.5}, {"day": "2024-05-02", "action": "exclude"}]}"#
                .utf8)
        let encodings: [[UInt8]] = [choices, [0xEF, 0xBB, 0xBF] + choices, Array(String(decoding: choices, as: UTF8.self).data(using: .utf16)!)]
        var m = Mutator(state: 5)
        var read = 0
        for (e, original) in encodings.enumerated() {
            for i in 0..<1000 {
                try Data(m.mutate(original, within: 0..<original.count)).write(to: URL(fileURLWithPath: file))
                do {
                    _ = try JSONFile.read(ChoicesFile.File.self, from: file, what: "a choices file")
                    read += 1
                } catch { assertOneLineError(error, "choices mutant \(e).\(i)") }
            }
        }
        XCTAssertGreaterThan(read, 0, "some mutants are still choices files")
        let config = folder.appendingPathComponent("config").path
        let settings = Array("# mine\r\nfolder /home/me/Videos\r\nfolder ~/Phone videos\n\nfolder /mnt/nas\n".utf8)
        for i in 0..<1500 {
            try Data(m.mutate(settings, within: 0..<settings.count)).write(to: URL(fileURLWithPath: config))
            do { _ = try ConfigFile.load(config, environment: ["HOME": "/home/me"]) } catch { assertOneLineError(error, "settings mutant \(i)") }
        }
    }
}
