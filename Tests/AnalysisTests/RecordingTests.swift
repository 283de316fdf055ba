import Foundation
import XCTest

@testable import Analysis
@testable import Imaging

/// The kinds of recording, rule by rule (see `Recording`), and what they do to a day's pick.
final class RecordingTests: XCTestCase {
    private func frames(_ count: Int, screens: Int, score: Float = 0.5) -> [FrameAnalysis] {
        (0..<count).map { i in
            FrameAnalysis(
                time: Double(i) / 8, faces: [],
                aesthetics: Aesthetics(
                    value: score, exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: i < screens ? "screen" : nil),
                sharpness: score, clearFace: 0, subject: nil, bestCosine: nil,
                score: FrameScore(aesthetics: score, sharpness: score, face: 0, identity: nil))
        }
    }

    private func facts(
        _ name: String = "IMG_0001.MOV", duration: Double = 10, fps: Double = 30, capture: Double? = nil, identifier: Bool = false,
        stillTrack: Bool = false, still: String? = nil, camera: [String] = ["com.apple.quicktime.model"]
    ) -> RecordingFacts {
        RecordingFacts(
            fileName: name, duration: duration, frameRate: fps, width: 1920, height: 1080, captureRate: capture, contentIdentifier: identifier,
            stillImageTime: stillTrack, stillBeside: still, cameraTags: camera)
    }

    func testLivePhotosAreShortAndCarryASign() {
        for f in [facts(duration: 2.1, identifier: true), facts(duration: 3, stillTrack: true), facts(duration: 1.5, still: "IMG_0001.HEIC")] {
            XCTAssertEqual(Recording.classify(f, frames: []).kind, .livePhoto, "\(f)")
        }
        XCTAssertEqual(Recording.classify(facts(duration: 12, identifier: true), frames: []).kind, .camera, "a long video is never a Live Photo")
        XCTAssertEqual(Recording.classify(facts(duration: 2), frames: []).kind, .camera, "short alone is not enough")
    }

    func testScreenRecordingsHaveNoCameraAndAScreenNameOrScreenFrames() {
        XCTAssertEqual(Recording.classify(facts("RPReplay_Final1690000000.MP4", camera: []), frames: []).kind, .screenRecording)
        XCTAssertEqual(Recording.classify(facts("Screen Recording 2024-05-02 at 10.00.00.mov", camera: []), frames: []).kind, .screenRecording)
        XCTAssertEqual(Recording.classify(facts("clip.mp4", camera: []), frames: frames(16, screens: 8)).kind, .screenRecording, "half the frames")
        XCTAssertEqual(Recording.classify(facts("clip.mp4", camera: []), frames: frames(16, screens: 7)).kind, .camera, "under half")
        var tall = facts("clip.mp4", camera: [])
        (tall.width, tall.height) = (886, 1920)  // an iPhone's screen, 19.5:9
        XCTAssertEqual(Recording.classify(tall, frames: frames(16, screens: 4)).kind, .screenRecording, "screen-shaped: a quarter is enough")
        XCTAssertEqual(Recording.classify(tall, frames: frames(16, screens: 3)).kind, .camera)
        (tall.width, tall.height) = (1080, 1920)  // 16:9, as cameras film
        XCTAssertEqual(Recording.classify(tall, frames: frames(16, screens: 4)).kind, .camera)
        XCTAssertEqual(
            Recording.classify(facts("RPReplay_Final1690000000.MP4"), frames: frames(16, screens: 16)).kind, .camera,
            "a phone filming a laptop's screen has camera metadata: it is a video taken")
    }

    func testSlowMotionAndTimeLapse() {
        let slowed = Recording.classify(facts(capture: 240, camera: []), frames: [])
        XCTAssertEqual(slowed.kind, .slowMotion)
        XCTAssertEqual(slowed.speed, 8, "captured at 240, played at 30: 8 s of file per real second")
        let realTime = Recording.classify(facts(fps: 119.88), frames: [])
        XCTAssertEqual(realTime.kind, .slowMotion)
        XCTAssertEqual(realTime.speed, 1, "stored in real time: a second of the file is a second")
        XCTAssertEqual(Recording.classify(facts(capture: 1920, camera: []), frames: []).speed, Recording.maxSpeed, "bounded")
        let lapse = Recording.classify(facts(capture: 0.5), frames: [])
        XCTAssertEqual(lapse.kind, .timeLapse)
        XCTAssertEqual(lapse.speed, 1, "a time-lapse's second is a second as it plays")
        XCTAssertEqual(Recording.classify(facts(capture: 30), frames: []).kind, .camera, "captured as it plays")
    }

    func testSetAsideVideosDoNotCompeteAndTheirWindowIsRealTime() {
        func video(_ name: String, _ f: RecordingFacts, score: Float, choice: RecordingChoice = RecordingChoice()) -> VideoAnalysis {
            VideoAnalysis.conclude(
                path: name, duration: 6, width: 640, height: 360, rotation: 0, codec: "h264", hdr: false,
                capture: CaptureDate(day: "2024-05-01", time: nil, instant: nil, source: .fileName), frames: frames(48, screens: 0, score: score),
                hasReferences: false, thresholds: .standard, windowLength: 1, aspect: 0.5625, times: .init(), facts: f, choice: choice)
        }
        let live = facts("IMG_0042.MOV", duration: 2, identifier: true)
        let screen = facts("RPReplay_Final1.MP4", camera: [])
        var (picks, skipped) = DayPick.pick(
            [video("live.mov", live, score: 0.9), video("screen.mp4", screen, score: 0.8), video("cam.mp4", facts(), score: 0.2)],
            hasReferences: false)
        XCTAssertEqual(picks.map(\.video), ["cam.mp4"], "the worse-looking camera video wins: the others are not videos the person took")
        (picks, skipped) = DayPick.pick([video("live.mov", live, score: 0.9), video("screen.mp4", screen, score: 0.8)], hasReferences: false)
        XCTAssertTrue(picks.isEmpty)
        XCTAssertEqual(
            skipped["2024-05-01"],
            "every video of it is set aside: a Live Photo's movie (--live-photos includes them); a screen recording (--screen-recordings includes them)"
        )
        let included = video("live.mov", live, score: 0.9, choice: RecordingChoice(livePhotos: true))
        XCTAssertNil(included.setAside)
        XCTAssertEqual(DayPick.pick([included], hasReferences: false).picks.map(\.video), ["live.mov"])

        let slowed = video("slow.mp4", facts(capture: 120, camera: []), score: 0.5)
        XCTAssertEqual(slowed.window?.length, 4, "a real second of a file captured at 120 and played at 30")
        let pick = DayPick.pick([slowed], hasReferences: false).picks.first
        XCTAssertEqual(pick?.speed, 4)
        XCTAssertEqual(pick?.length, 4)
        XCTAssertNil(
            DayPick.pick([video("cam.mp4", facts(), score: 0.2)], hasReferences: false).picks.first?.speed, "speed 1 is left out of the JSON")
    }
}
