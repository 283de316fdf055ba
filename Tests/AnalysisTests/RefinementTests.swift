import Imaging
import XCTest

@testable import Analysis

/// Which stretches a keyframe look sends the full-rate pass to, and when it declines.
final class RefinementTests: XCTestCase {
    private let everySecond = (0..<40).map(Double.init)

    private func scores(best: [Int: Float]) -> [Float] { everySecond.indices.map { best[$0] ?? 0.1 } }

    func testStretchesSurroundTheBestKeyframesOnTheSamplingGrid() throws {
        let s = try XCTUnwrap(
            Refinement.stretches(
                keyframeTimes: everySecond.map { $0 + 0.03 }, scores: scores(best: [10: 0.9, 30: 0.8, 20: 0.7]),
                duration: 40, windowLength: 1, interval: 0.125))
        // From the keyframe before (9.03 -> grid 9.0) to one window past the keyframe after.
        XCTAssertEqual(s.count, 3)
        XCTAssertEqual(s[0].lowerBound, 9.0)
        XCTAssertEqual(s[0].upperBound, 12.03, accuracy: 1e-9)
        XCTAssertEqual(s[1].lowerBound, 19.0)
        XCTAssertEqual(s[2].lowerBound, 29.0)
    }

    func testNeighbouringCandidatesMergeIntoOneStretch() throws {
        let s = try XCTUnwrap(
            Refinement.stretches(
                keyframeTimes: everySecond, scores: scores(best: [10: 0.9, 11: 0.8, 12: 0.7]),
                duration: 40, windowLength: 1, interval: 0.125))
        XCTAssertEqual(s, [9.0..<14.0])
    }

    func testTheLastKeyframesStretchEndsWithTheVideo() throws {
        let s = try XCTUnwrap(
            Refinement.stretches(
                keyframeTimes: everySecond, scores: scores(best: [39: 0.9]), duration: 40, windowLength: 1,
                interval: 0.125))
        XCTAssertEqual(s.last?.upperBound, 40)
    }

    func testShortVideosSparseKeyframesAndWideStretchesGetAFullPass() {
        // Under 20 s.
        XCTAssertNil(Refinement.stretches(keyframeTimes: [0, 1, 2, 3], scores: [1, 0, 0, 0], duration: 19, windowLength: 1, interval: 0.125))
        // A keyframe every 10 s says too little about where to look.
        XCTAssertNil(Refinement.stretches(keyframeTimes: [0, 10, 20, 30], scores: [1, 0, 0, 0], duration: 40, windowLength: 1, interval: 0.125))
        // Nothing after the last keyframe for 6 s.
        XCTAssertNil(
            Refinement.stretches(
                keyframeTimes: everySecond.prefix(35).map { $0 }, scores: [Float](repeating: 0, count: 35),
                duration: 41, windowLength: 1, interval: 0.125))
        // Keyframes 3.5 s apart: three stretches of 8 s are over half of a 40 s video (all
        // pictures different: no two scores alike).
        let sparse = stride(from: 0.0, to: 40, by: 3.5).map { $0 }
        XCTAssertNil(
            Refinement.stretches(
                keyframeTimes: sparse, scores: sparse.indices.map { Float($0 % 3 == 0 ? 1 : 0) - Float($0) / 1000 },
                duration: 40, windowLength: 1, interval: 0.125))
    }

    /// A clip joined to itself: the best picture at 10 s comes again at 30 s and 35 s, to the
    /// last bit. Its copies would only hold the same windows again, so the next candidates are
    /// the next different pictures (20 s and 25 s), the earliest copy standing for all.
    func testThePicturesOfARepeatedClipTakeOneCandidatesPlace() throws {
        let s = try XCTUnwrap(
            Refinement.stretches(
                keyframeTimes: everySecond, scores: scores(best: [10: 0.9, 30: 0.9, 35: 0.9, 20: 0.8, 25: 0.7]),
                duration: 40, windowLength: 1, interval: 0.125))
        XCTAssertEqual(s, [9.0..<12.0, 19.0..<22.0, 24.0..<27.0])
    }

    /// Every other keyframe looked at (2 s apart): around each of the best, from the looked-at
    /// keyframe before to the one after, where the two left out beside it are; neighbours joined.
    func testNeighbourhoodsOfTheBestKeyframesOfAHalfLook() {
        let half = stride(from: 0.0, to: 40, by: 2).map { $0 }
        var scores = half.indices.map { 0.1 + Float($0) / 1000 }
        scores[5] = 0.9  // 10 s
        scores[6] = 0.8  // 12 s
        scores[0] = 0.7  // 0 s
        scores[19] = 0.6  // 38 s
        let n = Refinement.neighbourhoods(keyframeTimes: half, scores: scores, duration: 40, count: 4)
        XCTAssertEqual(n, [0.0..<2.0, 8.0..<14.0, 36.0..<40.0])
        XCTAssertEqual(Refinement.neighbourhoods(keyframeTimes: half, scores: scores, duration: 40, count: 1), [8.0..<12.0])
    }

    /// A keyframe with these faces (quality each, and whose embedding: a unit vector per person).
    private func keyframe(_ time: Double, _ faces: [(person: Int, quality: Float)]) throws -> ObservedFrame {
        let looks = Aesthetics(value: 0.5, exposure: 0.5, contrast: 0.5, colourfulness: 0.5, cleanliness: 0.5, rejected: nil)
        return ObservedFrame(
            time: time, aesthetics: looks, sharpness: 0.5,
            faces: try faces.enumerated().map { i, f in
                ObservedFace(
                    box: Box(x: Float(100 * i), y: 0, width: 50, height: 50), score: 0.9, quality: f.quality,
                    embedding: try Embedding(validating: (0..<Embedding.count).map { $0 == f.person ? 1 : 0 }))
            })
    }

    /// The library's look gives everyone seen at a keyframe (and no one) the windows of their
    /// best keyframe, unless a stretch already holds one about as good for them: two people seen
    /// together share one, a person seen elsewhere gets their own, and so does a face seen once.
    func testTheLibrarysLookGivesEveryoneSeenTheWindowsOfTheirBestKeyframe() throws {
        let look = try everySecond.map { t -> ObservedFrame in
            let k = Int(t)
            if k < 20 {
                // Person 0 clearest at 5, person 2 beside them once, at 12, and never again.
                return try keyframe(t, [(0, k == 5 ? 0.9 : 0.5)] + (k == 12 ? [(2, 0.5)] : []))
            }
            // Person 1 alone, clearest at 30, with person 3 beside them about as clear there.
            return try keyframe(t, [(1, k == 30 ? 0.8 : 0.5), (3, k == 30 ? 0.79 : k == 33 ? 0.8 : 0.5)])
        }
        let s = try XCTUnwrap(
            Refinement.stretchesForAnyone(keyframes: look, duration: 40, windowLength: 1, interval: 0.125, judging: Judgement.Rules()))
        // No one's best (the clearest face, at 5) holds person 0's; person 2's only keyframe;
        // person 1's best, which holds person 3's within the margin (33 is not needed).
        XCTAssertEqual(s, [4.0..<6.0, 11.0..<13.0, 29.0..<31.0])
        XCTAssertEqual(
            Refinement.stretchesForAnyone(
                keyframes: Array(look.prefix(15)), duration: 15, windowLength: 1, interval: 0.125,
                judging: Judgement.Rules()), [4.0..<6.0, 11.0..<13.0], "shorter than the one-shot's look")
        XCTAssertNil(
            Refinement.stretchesForAnyone(
                keyframes: Array(look.prefix(7)), duration: 7, windowLength: 1, interval: 0.125,
                judging: Judgement.Rules()), "a clip under \(Refinement.anyoneFrom) s is sampled whole")
        var rules = Refinement.Rules()
        rules.anyoneMargin = 0
        let strict = try XCTUnwrap(
            Refinement.stretchesForAnyone(
                keyframes: look, duration: 40, windowLength: 1, interval: 0.125,
                judging: Judgement.Rules(), rules: rules))
        XCTAssertEqual(strict, [4.0..<6.0, 11.0..<13.0, 29.0..<31.0, 32.0..<34.0], "without a margin person 3 gets their own")
        // Everyone apart, each at their own best keyframe, until the stretches would be over half.
        let apart = try everySecond.map { t in try keyframe(t, [(Int(t) % 25, 0.5)]) }
        XCTAssertNil(Refinement.stretchesForAnyone(keyframes: apart, duration: 40, windowLength: 1, interval: 0.125, judging: Judgement.Rules()))
    }

    /// Two people each clearest at a keyframe of their own, but nearly as clear where they are
    /// together: one stretch there serves both (and no one), where one for each would be two.
    func testTheLibrarysLookTakesOneStretchWherePeopleAreNearlyAsClearTogether() throws {
        let look = try everySecond.map { t -> ObservedFrame in
            let k = Int(t)
            guard (10...20).contains(k) else { return try keyframe(t, []) }
            return try keyframe(t, [(0, k == 10 ? 0.8 : k == 15 ? 0.79 : 0.5), (1, k == 20 ? 0.8 : k == 15 ? 0.79 : 0.5)])
        }
        let s = try XCTUnwrap(
            Refinement.stretchesForAnyone(keyframes: look, duration: 40, windowLength: 1, interval: 0.125, judging: Judgement.Rules()))
        XCTAssertEqual(s, [14.0..<16.0])
    }

    /// A stretch holding a keyframe but not the windows either side of it (a keyframe just after
    /// a scene cut lies off the sampling grid) does not serve a face seen only there: it gets the
    /// windows round that keyframe.
    func testAStretchOnlyReachingAKeyframeDoesNotServeThoseSeenThere() throws {
        let times = (everySecond + [20.53]).sorted()
        let look = try times.map { t in try keyframe(t, t == 20.53 ? [(5, 0.5)] : [(0, t == 20 ? 0.9 : 0.5)]) }
        let s = try XCTUnwrap(
            Refinement.stretchesForAnyone(keyframes: look, duration: 40, windowLength: 1, interval: 0.125, judging: Judgement.Rules()))
        XCTAssertEqual(s, [19.0..<21.53])
    }

    func testTiesGoToTheEarlierKeyframe() throws {
        let s = try XCTUnwrap(
            Refinement.stretches(
                keyframeTimes: everySecond, scores: [Float](repeating: 0.5, count: 40), duration: 40,
                windowLength: 1, interval: 0.125,
                rules: {
                    var r = Refinement.Rules(); r.candidates = 1; return r
                }()))
        XCTAssertEqual(s, [0.0..<2.0])
    }
}
