import Foundation
import XCTest

@testable import Analysis
@testable import Imaging

/// Day picks across videos: per day the best window wins; with references only videos with the
/// person compete, and a day without them is skipped.
final class DayPickTests: XCTestCase {
    private func video(_ path: String, day: String, time: String, score: Float, contains: Bool?) -> VideoAnalysis {
        let frames = (0..<16).map { i in
            FrameAnalysis(
                time: Double(i) / 8, faces: [],
                aesthetics: Aesthetics(value: score, exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil),
                sharpness: score, clearFace: 0, subject: nil, bestCosine: nil,
                score: FrameScore(aesthetics: score, sharpness: score, face: 0, identity: contains == nil ? nil : (contains! ? 1 : 0)))
        }
        var v = VideoAnalysis.conclude(
            path: path, duration: 2, width: 640, height: 360, rotation: 0, codec: "h264", hdr: false,
            capture: CaptureDate(day: day, time: time, instant: nil, source: .fileName), frames: frames,
            hasReferences: false, thresholds: .standard, windowLength: 1, aspect: Aspect.portrait.ratio, times: .init())
        if let contains {
            v.identity = .init(framesAtMatch: contains ? 8 : 0, framesAtStrong: 0, bestCosine: contains ? 0.5 : 0.2, containsPerson: contains)
        }
        return v
    }

    func testBestVideoPerDayAndDaysWithoutThePersonAreSkipped() {
        let videos = [
            video("a.mp4", day: "2024-05-01", time: "10:00:00", score: 0.3, contains: true),
            video("b.mp4", day: "2024-05-01", time: "11:00:00", score: 0.9, contains: false),
            video("c.mp4", day: "2024-05-02", time: "09:00:00", score: 0.8, contains: false),
            video("d.mp4", day: "2024-04-30", time: "09:00:00", score: 0.5, contains: true),
        ]
        let (picks, skipped) = DayPick.pick(videos, hasReferences: true)
        XCTAssertEqual(picks.map(\.day), ["2024-04-30", "2024-05-01"], "chronological")
        XCTAssertEqual(picks.map(\.video), ["d.mp4", "a.mp4"], "a lovely video without the person does not win the day")
        XCTAssertNotNil(skipped["2024-05-02"])
        // Without references, identity plays no part: the best-looking video wins each day.
        let plainVideos = [
            video("a.mp4", day: "2024-05-01", time: "10:00:00", score: 0.3, contains: nil),
            video("b.mp4", day: "2024-05-01", time: "11:00:00", score: 0.9, contains: nil),
            video("c.mp4", day: "2024-05-02", time: "09:00:00", score: 0.8, contains: nil),
        ]
        let (plain, none) = DayPick.pick(plainVideos, hasReferences: false)
        XCTAssertEqual(plain.map(\.video), ["b.mp4", "c.mp4"])
        XCTAssertTrue(none.isEmpty)
    }
}
