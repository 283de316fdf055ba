import Foundation
import XCTest
@testable import Imaging
@testable import Analysis

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
}
