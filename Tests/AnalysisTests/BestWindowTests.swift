import Foundation
import XCTest

@testable import Analysis
@testable import Imaging

final class BestWindowTests: XCTestCase {
    func testOneGoodFrameBesideBlurDoesNotWin() {
        // 8 frames per second over 4 s: second 1 holds one excellent frame among poor ones,
        // second 3 is steadily good.
        let times = (0..<32).map { Double($0) / 8 }
        var scores = [Float](repeating: 0.2, count: 32)
        scores[10] = 1.0
        for i in 24..<32 { scores[i] = 0.6 }
        let w = BestWindow.best(times: times, scores: scores, duration: 4)!
        XCTAssertEqual(w.start, 3, accuracy: 1e-9)
        XCTAssertEqual(w.frames, 24..<32)
        XCTAssertEqual(w.meanScore, 0.6, accuracy: 1e-6)
    }

    func testWindowMustFitInsideTheVideo() {
        let times = [0, 0.25, 0.5, 0.75, 1.0, 1.25]
        let scores: [Float] = [0.1, 0.1, 0.1, 0.1, 0.9, 0.9]
        let w = BestWindow.best(times: times, scores: scores, duration: 1.5)!
        XCTAssertLessThanOrEqual(w.start + w.length, 1.5 + 1e-3)
        XCTAssertNil(BestWindow.best(times: [0, 0.25], scores: [1, 1], duration: 0.5))
    }

    /// Frames sampled only in stretches (coarse to fine): a window must fit inside one. The two
    /// excellent frames at the end of the first stretch would otherwise make a window by
    /// themselves, its other seconds never sampled.
    func testWindowMustFitInsideASampledStretch() throws {
        let first = (0..<24).map { 8 + Double($0) / 8 }, second = (0..<24).map { 20 + Double($0) / 8 }
        let times = first + second
        var scores = [Float](repeating: 0.5, count: 48)
        scores[22] = 0.95
        scores[23] = 0.95
        let stretches = [8.0..<11.0, 20.0..<23.0]
        let w = try XCTUnwrap(BestWindow.best(times: times, scores: scores, duration: 30, sampled: stretches))
        XCTAssertTrue(stretches.contains { $0.lowerBound <= w.start && w.start + w.length <= $0.upperBound }, "\(w)")
        XCTAssertEqual(w.frames.count, 8)
        XCTAssertEqual(w.start, 10, accuracy: 1e-9, "the last whole second of the first stretch")
        XCTAssertEqual(BestWindow.best(times: times, scores: scores, duration: 30)?.start ?? 0, 10.75, accuracy: 1e-9, "unbounded: 2 frames")
    }
}
