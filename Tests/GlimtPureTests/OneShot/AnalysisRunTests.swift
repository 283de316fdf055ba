import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import GlimtCore
@testable import GlimtPure

/// A one-shot run over many files: each bad one named in one line, the run going on.
final class AnalysisRunTests: XCTestCase {
    private func clip(_ name: String) -> String { Fixtures.url("analysis/\(name)").path }

    private func analyzer(_ allowance: AnalysisOptions.TimeAllowance = .standard) throws -> VideoAnalyzer {
        var options = AnalysisOptions()
        options.timeAllowance = allowance
        options.sampleRate = 4
        return VideoAnalyzer(options: options, references: [], models: try FaceModels.load())
    }

    /// Bad files get a one-line error naming the file, and the run goes on with the others.
    func testBadInputIsReportedAndTheRunGoesOn() throws {
        let folder = temporaryFolder(self)
        let good = clip("two_people.mp4")
        let truncated = folder.appendingPathComponent("truncated.mp4")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip("crowd_a_6to7.mp4")))
        try bytes.prefix(bytes.count / 3).write(to: truncated)
        let text = folder.appendingPathComponent("notes.mp4")
        try "not a video".write(to: text, atomically: true, encoding: .utf8)
        let empty = folder.appendingPathComponent("empty.mov")
        try Data().write(to: empty)
        let audio = Fixtures.url("media/audio_only.m4a").path
        var reported: [FileProblem] = []
        let result = AnalysisRun.run(
            inputs: [truncated.path, text.path, good, empty.path, audio, folder.appendingPathComponent("missing.mp4").path],
            analyzer: try analyzer(), report: { reported.append($0) })
        XCTAssertEqual(result.videos.map(\.path), [good], "the good video is analysed despite the bad ones around it")
        let failed = Set(result.failures.map(\.path))
        for bad in [text.path, empty.path, audio, folder.appendingPathComponent("missing.mp4").path] {
            XCTAssertTrue(failed.contains(bad), "\(bad) is reported")
        }
        for f in result.failures {
            XCTAssertFalse(f.reason.contains("\n"), "one line: \(f.reason)")
            XCTAssertFalse(f.reason.isEmpty)
        }
        XCTAssertEqual(reported.count, result.failures.count, "each failure is reported as it happens")
        // A truncated file is either refused or analysed up to the damage, never a crash.
        XCTAssertTrue(failed.contains(truncated.path) || result.videos.contains { $0.path == truncated.path })
    }

    /// A file stopped at its time bound is one failure; the next file is still analysed.
    func testEachFilePastItsTimeBoundIsOneFailure() throws {
        let files = [clip("two_people.mp4"), clip("midnight_utc.mp4")]
        let run = AnalysisRun.run(inputs: files, analyzer: try analyzer(.init(base: 0, perVideoSecond: 0)))
        XCTAssertEqual(run.failures.count, 2, "each file stopped on its own, neither hangs the run")
    }
}
