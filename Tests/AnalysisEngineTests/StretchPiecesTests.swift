import AnalysisEngine
import XCTest

/// Anyone's stretches cut for two threads: the pieces hold exactly the stretches' samples, and a
/// long stretch beside a short one is shared out.
final class StretchPiecesTests: XCTestCase {
    private let interval = 0.125

    private func samples(_ spans: [Range<Double>]) -> [Int] {
        spans.flatMap { s in stride(from: s.lowerBound, to: s.upperBound - 1e-9, by: interval).map { Int(($0 / interval).rounded()) } }
    }

    /// Seven seconds and two, keyframes every second: one thread would measure seven seconds while
    /// the other is idle after two. Cut at keyframes into pieces of about a quarter of the nine
    /// seconds, two threads share them out five and four.
    func testALongStretchBesideAShortOneIsCutAtKeyframes() {
        let stretches = [0.0..<7.0, 10.0..<12.0]
        let pieces = StretchPieces.cut(stretches, keyframes: (0..<30).map(Double.init), interval: interval, threads: 2)
        XCTAssertEqual(pieces, [0.0..<2.0, 2.0..<4.0, 4.0..<7.0, 10.0..<12.0])
        XCTAssertEqual(samples(pieces), samples(stretches), "the pieces' samples are the stretches'")
        XCTAssertTrue(pieces.allSatisfy { k in [0.0, 1, 2, 3, 4, 5, 6, 10].contains(k.lowerBound) }, "every piece starts at a keyframe: \(pieces)")
    }

    /// A keyframe off the sampling grid (29.97 fps, or just after a cut) is cut at the next grid
    /// point, so no sample moves.
    func testAnOffGridKeyframeCutsAtTheNextGridPoint() {
        let stretches = [0.0..<8.0, 20.0..<22.0]
        let pieces = StretchPieces.cut(stretches, keyframes: [0, 2.002, 4.004, 6.006, 20], interval: interval, threads: 2)
        XCTAssertEqual(pieces, [0.0..<2.125, 2.125..<4.125, 4.125..<6.125, 6.125..<8.0, 20.0..<22.0])
        XCTAssertTrue(pieces.allSatisfy { ($0.lowerBound / interval).rounded() * interval == $0.lowerBound }, "\(pieces)")
        XCTAssertEqual(samples(pieces), samples(stretches))
    }

    /// Stretches as long as each other, or without a keyframe inside, stay whole: nothing to
    /// share out, and a cut would only open another decoder.
    func testEvenStretchesStayWhole() {
        let even = [1.0..<3.0, 5.0..<7.0, 9.0..<11.0, 20.0..<22.0]
        XCTAssertEqual(StretchPieces.cut(even, keyframes: (0..<30).map(Double.init), interval: interval, threads: 2), even)
        XCTAssertEqual(StretchPieces.cut([0.0..<9.0, 12.0..<13.0], keyframes: [0, 12], interval: interval, threads: 2), [0.0..<9.0, 12.0..<13.0])
        XCTAssertEqual(StretchPieces.cut([], keyframes: [0, 1], interval: interval, threads: 2), [])
    }
}
