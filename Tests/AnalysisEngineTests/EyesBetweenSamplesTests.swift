import Analysis
import Faces
import Foundation
import MediaIO
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
    /// `blink_between.mp4`: the eyes close in the frames at 0.92 and 0.96 s only, between the
    /// samples at 0.88 and 1.0 s. The second [0, 1) holds those frames, and no sample in it or
    /// within `Moment.blinkReach` of it is closed: only the frame rate sees its blink.
    func testABlinkBetweenSamplesSpoilsTheSecondThatShowsIt() throws {
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "UTC")!
        let analyzer = VideoAnalyzer(options: options, references: [], pipeline: try FacePipeline.shared())
        let a = try analyzer.analyze(path: Fixtures.url("moment/blink_between.mp4").path)
        let times = a.frames.map(\.time)
        let first = try XCTUnwrap(BestWindow.at(start: 0, times: times, scores: a.frames.map(\.score.total)))
        XCTAssertEqual(times[first.frames.last!], 0.88, accuracy: 0.01)
        XCTAssertFalse(a.moment.eyesClosed.contains(true), "a sample shows the blink: the test needs none that does")
        XCTAssertTrue(a.closedEyes.contains { 0.9 < $0 && $0 < 0.97 }, "the frames at 0.92 and 0.96 s: \(a.closedEyes)")
        XCTAssertEqual(a.moment.flaws(of: first, times: times).filter(\.isEyesClosed).map(\.description), ["eyes closed at 0.9 s"])
        let w = try XCTUnwrap(a.window)
        XCTAssertFalse(w.start < 0.92 && 0.92 < w.start + w.length && w.flaws == [], "chose \(w.start) as flawless")
    }
}

/// One eye's reading dips with the eye open (a lid lowered, the model's noise); a blink takes
/// both down. A face's low reading is confirmed by its other eye (`EyeReader.confirmed`).
final class EyesConfirmedTests: XCTestCase {
    /// `blink.mp4` (the first 2.4 s of a Weekly Address): both eyes close at 0.92-1.00 s. At
    /// 1.40-1.64 s the eyes are open by MediaPipe FaceMesh (mean eye aspect ratio 0.20-0.24, no
    /// blink by tools/moment's rule) while the eye nearer the nose reads a third under its open
    /// level: read first, as it is whenever it is the more visible one, it would be a blink alone.
    func testAnEyeDippingAloneIsOpenAndABlinkIsClosed() throws {
        var detector = try FaceDetector.shared()
        detector.detectionSize = nil
        let reader = try EyeReader.shared()
        let frames = try VideoReader(path: Fixtures.url("moment/blink.mp4").path).frames(from: 0, to: 2.4, depth: .eightBit).collect()
        var times: [Double] = [], alone: [Float] = [], other: [Float] = [], confirmed: [Float] = []
        for frame in frames {
            let picture = frame.picture.rgb8
            guard let face = detector.detect(picture).first else { continue }
            let both = reader.eyes(of: face, in: picture)
            let lagging = !EyeReader.rightIsVisible(face.landmarks)
            times.append(frame.time)
            alone.append(lagging ? both.right : both.left)
            other.append(lagging ? both.left : both.right)
            confirmed.append(reader.confirmed(alone.last!, of: face, right: lagging, in: picture))
        }
        XCTAssertGreaterThan(times.count, 50, "a face in nearly every frame")
        let aloneLevel = try XCTUnwrap(EyeOpenness.openLevel(of: alone)), otherLevel = try XCTUnwrap(EyeOpenness.openLevel(of: other))
        let level = try XCTUnwrap(EyeOpenness.openLevel(of: confirmed))
        let dips = times.indices.filter { i in
            (1.38...1.66).contains(times[i]) && EyeOpenness.isClosed(alone[i], open: aloneLevel)
                && !EyeOpenness.isClosed(other[i], open: otherLevel)
        }
        XCTAssertGreaterThanOrEqual(dips.count, 3, "the test needs one eye to dip alone at 1.4-1.64 s: \(zip(alone, other).map { "\($0)/\($1)" })")
        for i in dips { XCTAssertFalse(EyeOpenness.isClosed(confirmed[i], open: level), "open at \(times[i]): \(confirmed[i]) of \(level)") }
        let blink = try XCTUnwrap(times.firstIndex { abs($0 - 0.96) < 0.01 })
        XCTAssertTrue(EyeOpenness.isClosed(confirmed[blink], open: level), "the blink at 0.96 s: \(confirmed[blink]) of \(level)")
        // A reading over the bar is the eye's own: no second run of the model.
        let open = try XCTUnwrap(times.indices.first { alone[$0] >= EyeReader.confirmBelow })
        XCTAssertEqual(confirmed[open], alone[open])
    }
}
