import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// The joins between days, heard and seen back from the film: no clicks, with music or without;
/// a fade through black when asked for.
final class FilmJoinTests: XCTestCase {
    /// A 2 s, 64x64 clip at 25 fps of one grey, sounding a sine.
    private func toneClip(_ path: String, grey: UInt8, hertz: Double, amplitude: Double) throws -> String {
        let writer = try FilmWriter(path: path, width: 64, height: 64, fps: 25, quality: FilmQuality(crf: 18, preset: "ultrafast"))
        for _ in 0..<50 { try writer.append(RGBImage(width: 64, height: 64, fill: (grey, grey, grey))) }
        let n = FilmWriter.audioSamples(forFrames: 50, fps: 25)
        try writer.appendAudio(
            (0..<n).flatMap { k -> [Float] in
                let v = Float(amplitude * sin(2 * .pi * hertz * Double(k) / 48_000))
                return [v, v]
            })
        try writer.finish()
        return path
    }

    /// The largest second difference (a click's mark: a smooth sound has little) within 30 ms of
    /// each join (the encoder spreads a step over a few milliseconds), and the largest elsewhere.
    private func clicks(_ samples: [Float], joins: [Double]) -> (atJoins: Float, elsewhere: Float) {
        var atJoins: Float = 0, elsewhere: Float = 0
        for i in 2..<samples.count {
            let d = abs(samples[i] - 2 * samples[i - 1] + samples[i - 2])
            let t = Double(i) / 48_000
            if joins.contains(where: { abs($0 - t) < 0.03 }) { atJoins = max(atJoins, d) } else if t > 0.05 { elsewhere = max(elsewhere, d) }
        }
        return (atJoins, elsewhere)
    }

    func testJoinsDoNotClickWithOrWithoutMusic() throws {
        let folder = temporaryFolder(self)
        // Loud low tones cut mid-wave at every join: without the fades, each join is a step.
        var clips: [String] = []
        for (i, hertz) in [110.0, 150.0, 190.0].enumerated() {
            clips.append(try toneClip(folder.appendingPathComponent("clip\(i).mp4").path, grey: 90, hertz: hertz, amplitude: 0.6))
        }
        let segments = clips.enumerated().map { i, path in
            FilmSegment(day: "2024-05-0\(i + 1)", video: path, start: 0.33 + 0.17 * Double(i), crop: Box(x: 0, y: 0, width: 64, height: 64))
        }
        let music = try SoundFixtures.tone(in: folder, hertz: 220, seconds: 0.7)
        for withMusic in [false, true] {
            var options = FilmOptions()
            (options.width, options.height, options.fps, options.preset) = (64, 64, 25, "ultrafast")
            if withMusic { options.music = [music] }
            let out = folder.appendingPathComponent("film\(withMusic).mp4").path
            try FilmRenderer(options: options).render(segments, to: out)
            let found = clicks(try SoundFixtures.left(of: out, seconds: try VideoReader(path: out).info.duration), joins: [1, 2])
            // A step of 2 % of full scale (-34 dBFS) is what a click must be to be heard over these
            // tones; each cut without its fades is a step of 10-60 %.
            XCTAssertLessThan(found.atJoins, 0.02, "music \(withMusic): a click at a join (\(found))")
        }
    }

    /// `--transition fade`: each second dips through black at its edges, picture and sound, and
    /// is whole in its middle; a cut leaves the edges as they are.
    func testAFadeDipsThroughBlackAtTheJoins() throws {
        let folder = temporaryFolder(self)
        let path = try toneClip(folder.appendingPathComponent("grey.mp4").path, grey: 200, hertz: 300, amplitude: 0.5)
        let segments = (0..<2).map { i in
            FilmSegment(day: "2024-05-0\(i + 1)", video: path, start: 0.2 + 0.3 * Double(i), crop: Box(x: 0, y: 0, width: 64, height: 64))
        }
        for transition in FilmOptions.Transition.allCases {
            var options = FilmOptions()
            (options.width, options.height, options.fps, options.preset, options.transition) = (64, 64, 25, "ultrafast", transition)
            let out = folder.appendingPathComponent("\(transition).mp4").path
            try FilmRenderer(options: options).render(segments, to: out)
            let frames = try VideoReader(path: out).frames(from: 0, to: 2, depth: .eightBit).collect().map(\.picture.rgb8)
            XCTAssertEqual(frames.count, 50)
            func brightness(_ k: Int) -> Double { Double(frames[k].pixels.reduce(0) { $0 + Int($1) }) / Double(frames[k].pixels.count) }
            let left = try SoundFixtures.left(of: out, seconds: 2)
            let edgeSound = SoundFixtures.band(left, hertz: 300, from: 0.98, to: 1.02),
                middleSound = SoundFixtures.band(left, hertz: 300, from: 1.4, to: 1.6)
            for middle in [12, 37] { XCTAssertEqual(brightness(middle), 200, accuracy: 6, "\(transition): frame \(middle) is whole") }
            if transition == .fade {
                for edge in [24, 25] { XCTAssertLessThan(brightness(edge), 60, "the frames at the join dip through black") }
                XCTAssertLessThan(edgeSound, middleSound - 12, "the sound dips with the picture")
            } else {
                for edge in [24, 25] { XCTAssertEqual(brightness(edge), 200, accuracy: 6, "a cut leaves the frames at the join whole") }
                XCTAssertEqual(edgeSound, middleSound, accuracy: 6, "a cut's sound fades only over 12 ms")
            }
        }
    }
}
