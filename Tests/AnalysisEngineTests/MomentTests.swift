import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import AnalysisEngine
@testable import Faces

/// The chosen second is a whole moment on real clips (Fixtures/moment, made by
/// tools/fixtures/make_moment_fixtures.sh): one shot, and its edges in the pauses of speech.
final class MomentTests: XCTestCase {
    private func analyze(_ name: String) throws -> VideoAnalysis {
        try VideoAnalyzer(options: AnalysisOptions(), references: [], pipeline: try FacePipeline.shared())
            .analyze(path: Fixtures.path("moment/\(name)"))
    }

    /// Two shots joined at 1.3 s: the best-scoring second (0.4-1.4 s) straddles the join; the
    /// chosen one is one shot, and says which second it passed over and why.
    func testSecondAcrossASceneCutIsNotChosen() throws {
        let a = try analyze("two_shots.mp4")
        let w = try XCTUnwrap(a.window)
        let cut = 1.3
        XCTAssertFalse(w.start < cut - 0.05 && cut + 0.05 < w.start + w.length, "the second \(w.start)-\(w.start + w.length) s crosses the cut")
        XCTAssertEqual(w.flaws, [])
        let cuts = zip(a.frames, ShotSignature.cuts(a.frames.map(\.shotChange))).filter(\.1).map(\.0.time)
        XCTAssertEqual(cuts.count, 1, "one cut found: \(cuts)")
        XCTAssertEqual(cuts.first ?? 0, cut, accuracy: 0.13, "the sample after the cut")
        XCTAssertTrue(w.passedOver?.contains("scene cut at 1.3 s") == true, w.passedOver ?? "nothing passed over")
    }

    /// Speech at 0-1.2, 1.6-2.3 and 2.7-4 s: both edges of the chosen second fall in the pauses,
    /// and the speech found is where it was put.
    func testEdgesOfTheSecondFallInPausesOfSpeech() throws {
        let a = try analyze("speech.mp4")
        let w = try XCTUnwrap(a.window)
        let pauses = [1.2..<1.6, 2.3..<2.7]
        for edge in [w.start, w.start + w.length] {
            XCTAssertTrue(pauses.contains { $0.contains(edge) }, "edge at \(edge) s is inside speech")
        }
        XCTAssertEqual(w.flaws, [])
        let speech = try XCTUnwrap(a.speech).runs
        XCTAssertEqual(speech.count, 3, "\(speech)")
        for (found, put) in zip(speech, [0.0..<1.2, 1.6..<2.3, 2.7..<4.0]) {
            XCTAssertEqual(found.lowerBound, put.lowerBound, accuracy: 0.1)
            XCTAssertEqual(found.upperBound, put.upperBound, accuracy: 0.1)
        }
    }

    /// A clip without sound has no speech map, and nothing about speech spoils its seconds.
    func testClipWithoutSoundHasNoSpeech() throws {
        let a = try analyze("two_shots.mp4")
        XCTAssertNil(a.speech)
    }
}
