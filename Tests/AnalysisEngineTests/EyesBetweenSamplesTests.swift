import Analysis
import Faces
import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import Imaging

/// Blinks read between samples are closed by the same dip rule as sampled eyes, against the open
/// level of the readings at the same place.
final class EyesBetweenSamplesTests: XCTestCase {
    private let left = Box(x: 100, y: 50, width: 80, height: 100)
    private let right = Box(x: 400, y: 60, width: 80, height: 100)

    /// 30 frames of one second; `openness(t)` at `box`.
    private func readings(_ box: Box, _ openness: (Double) -> Float) -> [EyesBetweenSamples.Reading] {
        (0..<30).map { k in
            let t = Double(k) / 30
            return EyesBetweenSamples.Reading(time: t, box: box, openness: openness(t), between: true)
        }
    }

    func testABlinkBetweenSamplesIsFound() {
        let r = readings(left) { abs($0 - 0.5) < 0.02 ? 0.12 : 0.4 }
        XCTAssertEqual(EyesBetweenSamples.closed(in: r), [0.5])
    }

    /// Eyes that read narrow all along do not blink; the dip is measured against the same face.
    func testNarrowEyesAreOpenAndEachFaceHasItsOwnLevel() {
        XCTAssertEqual(EyesBetweenSamples.closed(in: readings(left) { _ in 0.18 }), [])
        let both = readings(left) { _ in 0.45 } + readings(right) { abs($0 - 0.7) < 0.02 ? 0.2 : 0.3 }
        XCTAssertEqual(EyesBetweenSamples.closed(in: both), [0.7])
    }

    /// A sample's reading counts for the open level but is not reported again: the sample itself
    /// was judged with the samples.
    func testSamplesAreNotReportedAgain() {
        var r = readings(left) { _ in 0.4 }
        for i in r.indices where i % 4 == 0 { r[i].between = false }
        r[8].openness = 0.1
        r[10].openness = 0.1
        XCTAssertEqual(EyesBetweenSamples.closed(in: r), [r[10].time])
    }
}

/// The whole path on a real clip: a one-shot analysis decodes the second it is about to choose
/// again and reads the frames between samples.
final class EyesAtFrameRateTests: XCTestCase {
    /// `blink.mp4`: the eyes close in the frames at 0.92 and 0.96 s, after the sample at 0.88 s.
    /// The second [0, 1) holds those frames but no closed sample: only the frame rate sees its blink.
    func testABlinkBetweenSamplesSpoilsTheSecondThatShowsIt() throws {
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "UTC")!
        let analyzer = VideoAnalyzer(options: options, references: [], pipeline: try FacePipeline.shared())
        let a = try analyzer.analyze(path: Fixtures.url("moment/blink.mp4").path)
        let times = a.frames.map(\.time)
        let first = try XCTUnwrap(BestWindow.at(start: 0, times: times, scores: a.frames.map(\.score.total)))
        XCTAssertEqual(times[first.frames.last!], 0.88, accuracy: 0.01)
        XCTAssertFalse(first.frames.contains { a.moment.eyesClosed[$0] }, "a sample of [0, 1) shows the blink: the test needs one that does not")
        XCTAssertTrue(a.closedEyes.contains { 0.9 < $0 && $0 < 0.97 }, "the frames at 0.92 and 0.96 s: \(a.closedEyes)")
        XCTAssertEqual(a.moment.flaws(of: first, times: times).filter(\.isEyesClosed).map(\.description), ["eyes closed at 0.9 s"])
        let w = try XCTUnwrap(a.window)
        XCTAssertFalse(w.start < 0.92 && 0.92 < w.start + w.length && w.flaws == [], "chose \(w.start) as flawless")
    }
}
