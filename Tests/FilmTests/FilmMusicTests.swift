import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// Music under the film, heard back from the film's decoded sound: there throughout (looped),
/// at its level, lowered under the segments' speech (that speech is heard in a video's own
/// sound: `FilmCommandTests`); music that cannot be played refused first.
final class FilmMusicTests: XCTestCase {
    private func whole(_ path: String) throws -> Box {
        let info = try VideoReader(path: path).info
        return Box(x: 0, y: 0, width: Float(info.displayWidth), height: Float(info.displayHeight))
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
        let samples = try SoundFixtures.left(of: out, seconds: try VideoReader(path: out).info.duration)

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
