import Foundation
import TestSupport
import XCTest

@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// AudioReader on the clips in Fixtures/media (see PROVENANCE.md there for how each was made).
final class AudioReaderTests: XCTestCase {
    func testPortraitClipMiddleSecond() throws {
        let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/h264_portrait.mp4")))
        XCTAssertEqual(reader.codecName, "aac")
        XCTAssertEqual(reader.sourceChannels, 1)
        let samples = try reader.samples(from: 0.5, to: 1.5)
        XCTAssertEqual(samples.count, 2 * 48_000, "exactly one second of stereo frames")
        let left = FilmFixtures.side(samples, 0), right = FilmFixtures.side(samples, 1)
        XCTAssertGreaterThan(FilmFixtures.rms(left), 0.01, "not silent")
        XCTAssertEqual(left, right, "mono goes to both sides alike")
    }

    func testVideoWithoutSoundHasNoReader() throws {
        XCTAssertNil(try AudioReader(path: Fixtures.path("media/hevc10_hlg.mp4")))
        XCTAssertNil(try AudioReader(path: Fixtures.path("media/photo.webp")))
    }

    func testUnreadableFilesAreOneLineErrors() throws {
        let folder = temporaryFolder(self).path
        let missing = folder + "/missing.mp4"
        XCTAssertEqual(MediaFixtures.glimtError { _ = try AudioReader(path: missing) }?.description, "\(missing): no such file")
        let text = MediaFixtures.write(Array("not a video at all\n".utf8), folder, "text.mp4")
        XCTAssertEqual(MediaFixtures.glimtError { _ = try AudioReader(path: text) }?.path, text)
    }

    /// The fixture is silent until 0.5 s, then a 440 Hz tone: wherever a read starts, the tone
    /// starts on the same sample, at 0.5 s (the threshold crossing lies within a sample or two
    /// of the true onset).
    func testMono44kHzIsResampledSampleAccurately() throws {
        let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/audio_mono44k.mp4")))
        XCTAssertEqual(reader.sourceSampleRate, 44_100)
        XCTAssertEqual(reader.sourceChannels, 1)
        var onsets: Set<Int> = []
        for (start, end) in [(0.4, 0.6), (0.0, 0.7), (0.45, 0.55), (0.3, 0.9), (0.499, 0.51)] {
            let samples = try reader.samples(from: start, to: end)
            XCTAssertEqual(samples.count, 2 * AudioReader.frameCount(from: start, to: end))
            let onset = try XCTUnwrap(FilmFixtures.onset(samples), "\(start)...\(end)")
            onsets.insert(Int((start * 48_000).rounded()) + onset)
        }
        XCTAssertEqual(onsets.count, 1, "the same sample from every read: \(onsets)")
        XCTAssertEqual(Double(onsets.first ?? 0), 24_000, accuracy: 2, "the tone starts at 0.5 s")
        let tone = try reader.samples(from: 0.55, to: 0.95)
        XCTAssertEqual(FilmFixtures.frequency(FilmFixtures.side(tone, 0)), 440, accuracy: 3)
        XCTAssertEqual(FilmFixtures.rms(FilmFixtures.side(tone, 1)), 0.5 / 2.squareRoot(), accuracy: 0.03, "mono at full level on each side")
    }

    /// 5.1 at 32 kHz in Matroska, starting at 3 s: times count from the video's start, and
    /// the six channels fold into two different sides.
    func testSurround32kHzMatroskaWithOffset() throws {
        let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/audio_51_32k.mkv")))
        XCTAssertEqual(reader.sourceSampleRate, 32_000)
        XCTAssertEqual(reader.sourceChannels, 6)
        XCTAssertEqual(try VideoReader(path: Fixtures.path("media/audio_51_32k.mkv")).info.startTime, 3, accuracy: 0.001)
        for (start, end) in [(0.4, 0.6), (0.0, 0.7)] {
            let samples = try reader.samples(from: start, to: end)
            XCTAssertEqual(samples.count, 2 * AudioReader.frameCount(from: start, to: end))
            let onset = try XCTUnwrap(FilmFixtures.onset(samples))
            XCTAssertEqual(start + Double(onset) / 48_000, 0.5, accuracy: 2.5 / 48_000)
        }
        let samples = try reader.samples(from: 0.6, to: 0.9)
        let left = FilmFixtures.side(samples, 0), right = FilmFixtures.side(samples, 1)
        XCTAssertGreaterThan(FilmFixtures.rms(left), 0.2)
        XCTAssertGreaterThan(FilmFixtures.rms(right), 0.2)
        XCTAssertGreaterThan(FilmFixtures.rms(zip(left, right).map { $0 - $1 }), 0.1, "left and right carry different channels")
    }

    /// Pieces read in any order join into what one read gives: output samples sit on the
    /// source's own 48 kHz ticks, wherever a read starts or the seek lands. (Clean tones only:
    /// AAC's noise substitution, used on noisy sound at low bitrates, draws fresh noise each time.)
    func testRangesJoinUp() throws {
        for name in ["audio_mono44k.mp4", "audio_51_32k.mkv"] {
            let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/" + name)))
            let cuts = [0.5, 29_460.0 / 48_000, 0.8, 1.0]
            let third = try reader.samples(from: cuts[2], to: cuts[3])
            let second = try reader.samples(from: cuts[1], to: cuts[2])
            let first = try reader.samples(from: cuts[0], to: cuts[1])
            let whole = try reader.samples(from: cuts[0], to: cuts[3])
            let joined = first + second + third
            XCTAssertEqual(joined.count, whole.count, name)
            let worst = zip(joined, whole).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThan(worst, 0.002, "\(name): pieces match the whole")
        }
    }

    /// A stretch cut out of the sound (about 0.43 to 0.6 s; Matroska keeps the timestamps on
    /// either side) stays silent, and the sound after it stays at its own time rather than
    /// following straight on from the sound before the cut.
    func testGapInTheSoundStaysInPlace() throws {
        let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/audio_gap.mkv")))
        let samples = try reader.samples(from: 0, to: 1)
        XCTAssertEqual(samples.count, 2 * 48_000)
        func rms(_ from: Double, _ to: Double) -> Double {
            FilmFixtures.rms(Array(samples[(2 * Int(from * 48_000))..<(2 * Int(to * 48_000))]))
        }
        XCTAssertGreaterThan(rms(0.05, 0.4), 0.3, "the tone before the cut")
        XCTAssertLessThan(rms(0.45, 0.59), 0.01, "silence in the cut")
        XCTAssertGreaterThan(rms(0.65, 0.98), 0.3, "the tone after the cut, running to the end")
    }

    func testOutsideTheSoundIsSilence() throws {
        let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/h264_portrait.mp4")))
        let tail = try reader.samples(from: 1.5, to: 3.0)
        XCTAssertEqual(tail.count, 2 * 72_000, "padded to the length asked for")
        XCTAssertTrue(tail[(2 * 30_000)...].allSatisfy { $0 == 0 }, "silence after the clip ends at 2 s")
        let head = try reader.samples(from: -0.25, to: 0.25)
        XCTAssertEqual(head.count, 2 * 24_000)
        XCTAssertTrue(head[..<(2 * 12_000)].allSatisfy { $0 == 0 }, "silence before the clip starts")
        XCTAssertEqual(try reader.samples(from: 5, to: 6), [Float](repeating: 0, count: 2 * 48_000))
        XCTAssertEqual(try reader.samples(from: 1, to: 1), [])
    }

    /// A film cut short (index at the front, so it still opens) or with scrambled sound gives
    /// silence where the sound is missing or a one-line error, never a crash.
    func testDamagedFilesDoNotCrash() throws {
        let folder = temporaryFolder(self).path
        let film = folder + "/film.mp4"
        try FilmWriterTests.writeFilm(film)
        let bytes = MediaFixtures.bytes(film)
        let cut = MediaFixtures.write(Array(bytes[..<(bytes.count * 6 / 10)]), folder, "cut.mp4")
        var scrambled = bytes
        var state: UInt64 = 3
        for i in stride(from: bytes.count / 3, to: bytes.count, by: 97) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            scrambled[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let damaged = MediaFixtures.write(scrambled, folder, "scrambled.mp4")
        for path in [cut, damaged] {
            do {
                guard let reader = try AudioReader(path: path) else { continue }
                for (start, end) in [(0.0, 2.0), (1.5, 1.9), (0.2, 0.4)] {
                    do {
                        let samples = try reader.samples(from: start, to: end)
                        XCTAssertEqual(samples.count, 2 * AudioReader.frameCount(from: start, to: end))
                    } catch let error as GlimtError {
                        XCTAssertEqual(error.path, path)
                    }
                }
            } catch let error as GlimtError {
                XCTAssertEqual(error.path, path)
            }
        }
    }

    func testBadRangesAreRefused() throws {
        let path = Fixtures.path("media/h264_portrait.mp4")
        let reader = try XCTUnwrap(try AudioReader(path: path))
        XCTAssertEqual(
            MediaFixtures.glimtError { _ = try reader.samples(from: 1, to: 0.5) }?.description,
            "\(path): sound range must run forwards, not 1.0...0.5 s")
        XCTAssertNotNil(MediaFixtures.glimtError { _ = try reader.samples(from: .nan, to: 1) })
        XCTAssertNotNil(MediaFixtures.glimtError { _ = try reader.samples(from: 0, to: 10_000) })
        XCTAssertEqual(try reader.samples(from: 0.5, to: 0.6).count, 2 * 4_800, "still reads after a refusal")
    }

    func testSoundOnlyFileCountsFromItsSound() throws {
        let reader = try XCTUnwrap(try AudioReader(path: Fixtures.path("media/audio_only.m4a")))
        let samples = try reader.samples(from: 0.1, to: 0.9)
        XCTAssertEqual(samples.count, 2 * 38_400)
        XCTAssertGreaterThan(FilmFixtures.rms(samples), 0.01)
    }
}
