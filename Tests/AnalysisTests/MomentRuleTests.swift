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

    /// Speech everywhere but two pauses a second apart: the second between them, as far into
    /// both pauses as the best-scoring frames allow.
    func testEdgesGoToThePausesOfSpeech() throws {
        let speech = SpeechMap(runs: [0..<0.9, 1.3..<1.85, 2.25..<4])
        let w = try XCTUnwrap(choose(frames({ 1 - Float(abs($0 - 2)) / 20 }), speech: speech))
        XCTAssertEqual(w.flaws, [])
        XCTAssertGreaterThanOrEqual(speech.clearance(at: w.start), Moment.edgeClearance - 1e-9, "start \(w.start)")
        XCTAssertGreaterThanOrEqual(speech.clearance(at: w.start + w.length), Moment.edgeClearance - 1e-9, "end \(w.start + 1)")
        XCTAssertEqual(w.length, 1)
        // Margins: a frame before a word, more after one (its sound dies away below what is heard).
        XCTAssertTrue(SpeechMap(runs: [1.0..<2.0]).cutsSpeech(at: 0.99))
        XCTAssertFalse(SpeechMap(runs: [1.0..<2.0]).cutsSpeech(at: 0.97))
        XCTAssertTrue(SpeechMap(runs: [1.0..<2.0]).cutsSpeech(at: 2.05))
        XCTAssertFalse(SpeechMap(runs: [1.0..<2.0]).cutsSpeech(at: 2.09))
    }

    /// Speech with one short pause: every second cuts a word at one edge. The second that cuts
    /// nearest a word's edge is chosen over a better-scoring one that cuts deep into a word.
    func testAWordThatMustBeCutIsCutNearItsEdge() throws {
        let speech = SpeechMap(runs: [0..<1.0, 1.2..<4])
        let w = try XCTUnwrap(choose(frames({ 1 - Float(abs($0 - 1.6)) / 20 }), speech: speech))
        let cuts = [w.start, w.start + w.length].filter { speech.cutsSpeech(at: $0) }
        XCTAssertEqual(cuts.count, 1, "chose \(w.start): \(w.flaws ?? [])")
        let nearestEdge = cuts.map { t in speech.runs.flatMap { [abs($0.lowerBound - t), abs($0.upperBound - t)] }.min()! }.min()!
        XCTAssertLessThan(nearestEdge, 0.2, "chose \(w.start), cutting \(nearestEdge) s from a word's edge")
    }

    /// Pauses a second apart but between the 1/8 s grid's starts: no window on the grid has both
    /// edges in them, so the second is moved off the grid into them, keeping its length.
    func testASecondMovesOffTheGridIntoThePauses() throws {
        let speech = SpeechMap(runs: [0..<1.05, 1.25..<2.05, 2.25..<4])
        let f = frames({ 1 - Float(abs($0 - 1.5)) / 20 })
        let cleanOnGrid = BestWindow.candidates(times: f.map(\.time), scores: f.map(\.score.total), duration: 4, length: 1, sampled: nil)
            .filter { !speech.cutsSpeech(at: $0.start) && !speech.cutsSpeech(at: $0.start + $0.length) }
        XCTAssertEqual(cleanOnGrid.map(\.start), [], "a grid window with clean edges would not test the move")
        let w = try XCTUnwrap(choose(f, speech: speech))
        XCTAssertEqual(w.flaws, [], "chose \(w.start)")
        XCTAssertEqual(w.start, 1.18, accuracy: 0.005, "the middle of the pauses, 50 ms beyond the margins")
        XCTAssertEqual(w.length, 1)
        XCTAssertEqual(w.frames, 10..<18, "the frames inside [1.18, 2.18)")
        // Not moved across a scene cut it did not cross (a cut between the samples at 1.125 and 1.25).
        let cut = try XCTUnwrap(choose(frames({ 1 - Float(abs($0 - 1.5)) / 20 }, cutAt: 1.25), speech: speech))
        XCTAssertTrue(cut.start >= 1.25 - 1e-9 || cut.start + cut.length <= 1.125 + 1e-9, "\(cut.start) takes in the cut")
    }

    /// Closed eyes read between samples (at the video's frame rate) spoil the second that shows them.
    func testClosedEyesBetweenSamplesArePassedOver() throws {
        let f = frames({ 1 - Float(abs($0 - 1.5)) / 20 })
        let marks = Moment(frames: f, frameHeight: 360, speech: nil, closedEyes: [1.3])
        let w = try XCTUnwrap(BestWindow.best(times: f.map(\.time), scores: f.map(\.score.total), duration: 4, marks: marks))
        XCTAssertFalse((w.start..<(w.start + w.length)).contains(1.3), "chose \(w.start) with the blink at 1.3 s")
        // Nor one that starts as the blink ends: its first frames may still show the eyes opening.
        XCTAssertFalse(((w.start - 0.1)..<(w.start + w.length + 0.1)).contains(1.3), "chose \(w.start), by the blink at 1.3 s")
        XCTAssertEqual(w.flaws, [])
        XCTAssertTrue(w.passedOver?.hasSuffix("eyes closed at 1.3 s") == true, w.passedOver ?? "")
    }

    /// Closed eyes in a sample just before a second spoil it too: a second moved off the grid into
    /// a pause may start 80 ms after them, on eyes still opening.
    func testClosedEyesSampledJustBeforeASecondSpoilIt() throws {
        let f = frames({ 1 - Float(abs($0 - 1.6)) / 20 }, closedAt: 1.0..<1.01)
        let times = f.map(\.time)
        let marks = Moment(frames: f, frameHeight: 360, speech: nil)
        func closed(from start: Double) throws -> [String] {
            let w = try XCTUnwrap(BestWindow.at(start: start, times: times, scores: f.map(\.score.total)))
            return marks.flaws(of: w, times: times).filter(\.isEyesClosed).map(\.description)
        }
        XCTAssertEqual(try closed(from: 1.08), ["eyes closed at 1.0 s"])
        XCTAssertEqual(try closed(from: 1.15), [])
        // The only second with both edges in pauses starts 1.08-1.10 s: a word is cut instead.
        let speech = SpeechMap(runs: [0..<0.95, 1.12..<2.0, 2.17..<4])
        let w = try XCTUnwrap(choose(f, speech: speech))
        XCTAssertFalse(((w.start - Moment.blinkReach)..<(w.start + w.length)).contains(1.0), "chose \(w.start), by the closed eyes at 1.0 s")
    }

    /// Eyes that read narrow all along are open; a dip under the face's own open level is a blink.
    func testEyesAreClosedByADipUnderTheirOwnOpenLevel() {
        XCTAssertFalse(EyeOpenness.isClosed(0.17, open: 0.18), "narrow eyes, no dip")
        XCTAssertTrue(EyeOpenness.isClosed(0.2, open: 0.3), "a dip under 70 % of open")
        XCTAssertFalse(EyeOpenness.isClosed(0.23, open: 0.3), "a wobble of the reading")
        XCTAssertTrue(EyeOpenness.isClosed(0.17, open: nil), "no open level: the absolute line")
        XCTAssertFalse(EyeOpenness.isClosed(0.25, open: nil))
    }

    /// A smile's narrow eyes in one shot, wide-open eyes at the same place after a cut: each face
    /// is measured against its own open eyes, so the smile is not a blink.
    func testTheOpenLevelStaysInItsShot() {
        let frames = (0..<32).map { i -> FrameAnalysis in
            let t = Double(i) / 8
            let face = FaceInFrame(box: Box(x: 100, y: 50, width: 100, height: 120), score: 0.9, quality: 0.8, cosine: nil, eyes: t < 2 ? 0.15 : 0.4)
            return FrameAnalysis.evaluate(
                time: t, faces: [face], aesthetics: Aesthetics(value: 0.5, exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil),
                sharpness: 0.5, hasReferences: false, thresholds: .standard, shotChange: i == 0 ? nil : (i == 16 ? 0.5 : 0.01))
        }
        let moment = Moment(frames: frames, frameHeight: 360, speech: nil)
        XCTAssertEqual(moment.cutBefore.firstIndex(of: true), 16)
        XCTAssertEqual(moment.eyesClosed.indices.filter { moment.eyesClosed[$0] }, [], "narrow eyes read as closed against the next shot's")
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

    /// Two words 0.3 s apart: where the sound between them stays over the room's quiet (a soft
    /// syllable, the room ringing on) they are one run, and an edge there would cut the phrase;
    /// where it falls back to the quiet, the pause is heard.
    func testADipThatStaysOverTheQuietIsNotAPause() {
        let rate = 16_000
        func speech(between: Float) -> [Range<Double>] {
            var seed: UInt64 = 11
            let samples = (0..<(3 * rate)).map { i -> Float in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1
                let noise = Float(Int64(bitPattern: seed >> 11) % 1000) / 1_000_000  // room noise, about -68 dB in the band
                let t = Double(i) / Double(rate)
                let tone = Float(sin(2 * Double.pi * 300 * t))
                let word = (0.5..<1.2).contains(t) || (1.5..<2.2).contains(t)
                return noise + tone * (word ? 0.2 : (1.2..<1.5).contains(t) ? between : 0)
            }
            return VoiceActivity.speech(samples, rate: rate).runs
        }
        // About -58 dBFS between the words: under the level a word starts at (-55 dBFS here),
        // well over the quiet.
        let dip = speech(between: 0.002)
        XCTAssertEqual(dip.count, 1, "\(dip)")
        XCTAssertEqual(dip.first?.lowerBound ?? 0, 0.5, accuracy: 0.06)
        XCTAssertEqual(dip.first?.upperBound ?? 0, 2.2, accuracy: 0.06)
        let pause = speech(between: 0)
        XCTAssertEqual(pause.count, 2, "\(pause)")
        XCTAssertEqual(pause.first?.upperBound ?? 0, 1.2, accuracy: 0.06)
        XCTAssertEqual(pause.last?.lowerBound ?? 0, 1.5, accuracy: 0.06)
    }
}
