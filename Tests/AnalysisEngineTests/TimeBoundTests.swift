import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import Faces
@testable import GlimtCore
@testable import MediaIO

/// A file that would take for ever is stopped at its time bound with one line naming it, and a
/// run goes on with the next file; a bound that has not passed changes nothing.
final class TimeBoundTests: XCTestCase {
    private func analyzer(_ allowance: AnalysisOptions.TimeAllowance) throws -> VideoAnalyzer {
        var options = AnalysisOptions()
        options.timeAllowance = allowance
        options.sampleRate = 2
        return VideoAnalyzer(options: options, references: [], pipeline: try FacePipeline.shared())
    }

    func testAVideoPastItsBoundIsStoppedWithOneLineAndTheRunGoesOn() throws {
        let clip = Fixtures.url("analysis/two_people.mp4").path
        XCTAssertThrowsError(try analyzer(.init(base: 0, perVideoSecond: 0)).analyze(path: clip)) { error in
            XCTAssertEqual(error as? GlimtError, GlimtError("stopped after 0 s, its time bound (a damaged or hostile file?)", path: clip))
        }
        XCTAssertEqual(try analyzer(.standard).analyze(path: clip).frames.count, 8, "4 s at 2 a second, within the bound")
    }

    func testReadingChecksTheBoundBetweenFrames() throws {
        var options = VideoDecodeOptions()
        options.timeBound = TimeBound(seconds: 0.05)
        let frames = try VideoReader(path: Fixtures.url("long/long_day.mp4").path).frames(from: 0, to: 30, depth: .eightBit, options: options)
        usleep(100_000)
        XCTAssertThrowsError(try frames.next()) { error in
            XCTAssertTrue(error is TimeBoundExceeded, "\(error)")
        }
        XCTAssertEqual(TimeBound.Allowance.standard.bound(forVideoSeconds: 600).seconds, 1920, "a 10-minute video may take 32 minutes")
    }
}
