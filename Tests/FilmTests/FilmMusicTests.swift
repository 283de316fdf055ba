import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// Music under the film, heard back from the film's decoded sound: there throughout (looped),
/// at its level, lowered under the segments' speech; and joins that do not click, with music or
/// without. (That speech is heard in a video's own sound: `FilmCommandTests`.)
final class FilmMusicTests: XCTestCase {
    private func whole(_ path: String) throws -> Box {
        let info = try VideoReader(path: path).info
        return Box(x: 0, y: 0, width: Float(info.displayWidth), height: Float(info.displayHeight))
    }

    /// The film's left channel, as decoded.
    private func sound(of film: String) throws -> [Float] {
        let reader = try XCTUnwrap(try AudioReader(path: film))
        let stereo = try reader.samples(from: 0, to: try VideoReader(path: film).info.duration)
        return stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
    }

    func testMusicIsHeardThroughoutAtItsLevelAndLoweredUnderSpeech() throws {
        let folder = temporaryFolder(self)
        let silent = Fixtures.url("moment/two_shots.mp4").path  // no sound
        let speech = Fixtures.url("moment/speech.mp4").path  // speech at 0-1.2 s (its provenance)
        let music = try SoundFixtures.tone(in: folder, hertz: 5_000, seconds: 1.3)  // shorter than the film: looped
        let segments = [
            FilmSegment(day: "2024-05-01", video: silent, start: 0, crop: try whole(silent)),
            FilmSegment(day: "2024-05-02", video: speech, start: 0, crop: try whole(speech), speech: [0..<1.2, 1.6..<2.3]),
            FilmSegment(day: "2024-05-03", video: silent, start: 1.5, crop: try whole(silent)),
            FilmSegment(day: "2024-05-04", video: silent, start: 0.5, crop: try whole(silent)),
        ]
        var options = FilmOptions()
        (options.width, options.height, options.fps, options.preset) = (160, 90, 25, "ultrafast")
        options.music = [music]
        let out = folder.appendingPathComponent("film.mp4").path
        try FilmRenderer(options: options).render(segments, to: out)
        let samples = try sound(of: out)

        // Present throughout, across the loop's joins (at 1.3, 2.6, 3.9 s), fades aside.
        for k in 5..<35 {
            let t = Double(k) / 10
            XCTAssertGreaterThan(SoundFixtures.band(samples, hertz: 5_000, from: t, to: t + 0.1), -40, "music at \(t) s")
        }
        let underSilence = SoundFixtures.band(samples, hertz: 5_000, from: 2.5, to: 3.4)
        XCTAssertEqual(underSilence, options.musicLevel, accuracy: 1.5, "the music's level where no one speaks")
        let underSpeech = SoundFixtures.band(samples, hertz: 5_000, from: 1.1, to: 1.9)
        XCTAssertLessThanOrEqual(underSpeech, underSilence - 6, "lowered while someone speaks")
        // Faded in and out at the film's ends.
        XCTAssertLessThan(SoundFixtures.band(samples, hertz: 5_000, from: 0, to: 0.1), underSilence - 10)
        XCTAssertLessThan(SoundFixtures.band(samples, hertz: 5_000, from: 3.9, to: 4.0), underSilence - 10)
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
            let path = folder.appendingPathComponent("clip\(i).mp4").path
            let writer = try FilmWriter(path: path, width: 64, height: 64, fps: 25, quality: FilmQuality(crf: 18, preset: "ultrafast"))
            for _ in 0..<50 { try writer.append(RGBImage(width: 64, height: 64, fill: (90, 90, 90))) }
            let n = FilmWriter.audioSamples(forFrames: 50, fps: 25)
            try writer.appendAudio(
                (0..<n).flatMap { k -> [Float] in
                    let v = Float(0.6 * sin(2 * .pi * hertz * Double(k) / 48_000)); return [v, v]
                })
            try writer.finish()
            clips.append(path)
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
            let found = clicks(try sound(of: out), joins: [1, 2])
            // A step of 2 % of full scale (-34 dBFS) is what a click must be to be heard over these
            // tones; each cut without its fades is a step of 10-60 %.
            XCTAssertLessThan(found.atJoins, 0.02, "music \(withMusic): a click at a join (\(found))")
        }
    }

    func testMusicThatCannotBePlayedIsRefusedBeforeAFilmStarts() throws {
        let folder = temporaryFolder(self)
        let text = folder.appendingPathComponent("notes.mp3").path
        try Data("not music".utf8).write(to: URL(fileURLWithPath: text))
        for bad in [folder.appendingPathComponent("missing.mp3").path, text, Fixtures.url("moment/two_shots.mp4").path] {
            XCTAssertThrowsError(try MusicBed.check([bad])) { error in
                XCTAssertEqual((error as? GlimtError)?.path, bad, "the file is named")
            }
        }
        XCTAssertNoThrow(try MusicBed.check([try SoundFixtures.tone(in: folder, hertz: 440, seconds: 0.5)]))
    }
}
