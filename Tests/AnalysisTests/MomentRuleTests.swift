import XCTest

@testable import Analysis
@testable import Imaging

/// The rules that make the chosen second a whole moment (see `Moment`), on frames made up here.
final class MomentRuleTests: XCTestCase {
    /// 4 s at 8 frames a second; `score(t)` per frame.
    private func frames(_ score: (Double) -> Float, cutAt: Double? = nil, closedAt: Range<Double>? = nil) -> [FrameAnalysis] {
        (0..<32).map { i in
            let t = Double(i) / 8
            let face = FaceInFrame(
                box: Box(x: 100, y: 50, width: 100, height: 120), score: 0.9, quality: 0.8, cosine: nil,
                eyes: closedAt?.contains(t) == true ? 0 : 0.3)
            var f = FrameAnalysis.evaluate(
                time: t, faces: [face], aesthetics: Aesthetics(value: 0.5, exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil),
                sharpness: 0.5, hasReferences: false, thresholds: .standard, shotChange: i == 0 ? nil : 0.01)
            f.score = FrameScore(aesthetics: score(t), sharpness: score(t), face: score(t), identity: nil)
            if let cutAt, abs(t - cutAt) < 1e-9 { f.shotChange = 0.5 }
            return f
        }
    }

    private func choose(_ frames: [FrameAnalysis], speech: SpeechMap? = nil) -> BestWindow.Window? {
        BestWindow.best(
            times: frames.map(\.time), scores: frames.map(\.score.total), duration: 4,
            marks: Moment(frames: frames, frameHeight: 360, speech: speech))
    }

    /// Best frames around 2 s, a cut at 2 s: no second that holds frames of both shots.
    func testSecondNeverCrossesACut() throws {
        let w = try XCTUnwrap(choose(frames({ 1 - Float(abs($0 - 2)) / 4 }, cutAt: 2)))
        XCTAssertTrue(w.start + w.length <= 2 + 1e-9 || w.start >= 2, "\(w.start) crosses the cut at 2 s")
        XCTAssertTrue(w.passedOver?.hasPrefix("the second at 1.5 s scores higher: scene cut") == true, w.passedOver ?? "")
    }

    /// A day's other good seconds do not straddle a cut either.
    func testNoneOfTheBestSecondsCrossesACut() {
        let f = frames({ 1 - Float(abs($0 - 2)) / 4 }, cutAt: 2)
        let windows = BestWindow.top(
            3, times: f.map(\.time), scores: f.map(\.score.total), duration: 4, marks: Moment(frames: f, frameHeight: 360, speech: nil))
        XCTAssertEqual(windows.count, 3)
        for w in windows { XCTAssertTrue(w.start + w.length <= 2 - 0.125 + 1e-9 || w.start >= 2, "\(w.start) crosses the cut at 2 s") }
    }

    /// Closed eyes in the best second, an open-eyed one close behind: the open-eyed one.
    func testClosedEyesArePassedOverForACloseSecond() throws {
        let w = try XCTUnwrap(choose(frames({ 1 - Float(abs($0 - 1.5)) / 20 }, closedAt: 1.25..<1.5)))
        XCTAssertFalse((w.start..<(w.start + w.length)).overlaps(1.25..<1.5), "chose \(w.start) with the blink")
        XCTAssertEqual(w.flaws, [])
        // Nothing close enough without the blink: the best second, its flaw said.
        let lone = try XCTUnwrap(choose(frames({ abs($0 - 1.5) < 0.6 ? 1 : 0.1 }, closedAt: 1.25..<1.5)))
        XCTAssertEqual(lone.flaws, ["eyes closed at 1.2 s"])
    }

    /// Speech everywhere but two pauses a second apart: the second between them.
    func testEdgesGoToThePausesOfSpeech() throws {
        let speech = SpeechMap(runs: [0..<0.9, 1.3..<1.85, 2.25..<4])
        let w = try XCTUnwrap(choose(frames({ 1 - Float(abs($0 - 2)) / 20 }), speech: speech))
        XCTAssertEqual(w.start, 1.125, accuracy: 1e-9, "the latest start whose edges are both in pauses scores best")
        XCTAssertEqual(w.flaws, [])
        // A margin of a frame: an edge 0.01 s before speech starts is in it.
        XCTAssertTrue(SpeechMap(runs: [1.0..<2.0]).cutsSpeech(at: 0.99))
        XCTAssertFalse(SpeechMap(runs: [1.0..<2.0]).cutsSpeech(at: 0.9))
    }

    /// Voice-band bursts with pauses are found where they are; steady hum and silence are not speech.
    func testVoiceActivityFindsBurstsNotHum() {
        let rate = 16_000
        var samples = [Float](repeating: 0, count: 4 * rate)
        var seed: UInt64 = 7
        for i in samples.indices {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1
            let noise = Float(Int64(bitPattern: seed >> 11) % 1000) / 1_000_000  // room noise, -70 dB
            let t = Double(i) / Double(rate)
            let voiced = (0.5..<1.5).contains(t) || (2.2..<3.0).contains(t)
            samples[i] = noise + (voiced ? 0.2 * Float(sin(2 * Double.pi * 300 * t) * (0.6 + 0.4 * sin(2 * Double.pi * 4 * t))) : 0)
        }
        let runs = VoiceActivity.speech(samples, rate: rate).runs
        XCTAssertEqual(runs.count, 2, "\(runs)")
        XCTAssertEqual(runs.first?.lowerBound ?? 0, 0.5, accuracy: 0.06)
        XCTAssertEqual(runs.last?.upperBound ?? 0, 3.0, accuracy: 0.08)
        XCTAssertEqual(VoiceActivity.speech([Float](repeating: 0, count: rate), rate: rate).runs, [])
        let hum = (0..<(2 * rate)).map { Float(0.3 * sin(2 * Double.pi * 50 * Double($0) / Double(rate))) }
        XCTAssertEqual(VoiceActivity.speech(hum, rate: rate).runs, [], "a steady hum is its own quiet")
    }
}
