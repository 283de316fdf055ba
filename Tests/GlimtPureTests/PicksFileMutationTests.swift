import Foundation
import XCTest
import TestSupport
@testable import GlimtCore
@testable import GlimtPure

/// A bounded random-mutation loop over what glimt parses itself (see TestSupport's `Mutator`):
/// each mutant must either parse or fail with a one-line error; a trap fails the whole run.
final class PicksFileMutationTests: XCTestCase {
    func testPicksFilesSurviveMutations() throws {
        let box = #"{"x": 10, "y": 0, "width": 150, "height": 270}"#
        let pick = #"{"day": "2024-05-04", "video": "/v/a.mp4", "start": 1.5, "length": 1, "score": 0.9, "parts": {"aesthetics": 1, "sharpness": 1, "face": 1}, "crop": \#(box), "zoom": 1, "dateSource": "file name", "candidates": 1}"#
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
}
