import CFFmpeg
import Foundation
import TestSupport
import XCTest

@testable import Imaging
@testable import MediaIO

/// FilmWriter, checked by reading its films back through our own readers and libavformat.
final class FilmWriterTests: XCTestCase {
    /// Solid colours, each held for 10 frames; kept off the extremes so limited-range YUV
    /// has room on both sides.
    static let colours: [(r: UInt8, g: UInt8, b: UInt8)] = [
        (200, 40, 40), (40, 200, 40), (40, 40, 200), (220, 220, 60), (128, 128, 128), (30, 160, 200),
    ]

    /// Writes `frames` frames cycling through `colours` and `sound` in uneven chunks.
    @discardableResult
    static func writeFilm(
        _ path: String, width: Int = 320, height: Int = 240, fps: Int = 30, frames: Int = 60,
        sound: [Float]? = FilmFixtures.tone(seconds: 2), quality: FilmQuality = .standard
    ) throws -> FilmWriter {
        let writer = try FilmWriter(path: path, width: width, height: height, fps: fps, audio: sound != nil, quality: quality)
        var soundAt = 0
        for i in 0..<frames {
            try writer.append(RGBImage(width: width, height: height, fill: colours[(i / 10) % colours.count]))
            // Sound goes in between the frames, in chunks that fit no frame or AAC boundary.
            if let sound, soundAt < sound.count {
                let chunk = min(2 * (777 + 311 * (i % 5)), sound.count - soundAt)
                try writer.appendAudio(Array(sound[soundAt..<(soundAt + chunk)]))
                soundAt += chunk
            }
        }
        if let sound, soundAt < sound.count { try writer.appendAudio(Array(sound[soundAt...])) }
        try writer.finish()
        return writer
    }

    // MARK: The film

    func testTwoSecondFilmReadsBack() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try Self.writeFilm(path)
        XCTAssertEqual(writer.framesWritten, 60)
        XCTAssertEqual(writer.duration, 2.0)

        let reader = try VideoReader(path: path)
        let info = reader.info
        XCTAssertEqual(info.codecName, "h264")
        XCTAssertEqual(info.pixelFormat, "yuv420p")
        XCTAssertEqual(info.bitDepth, 8)
        XCTAssertEqual(info.codedWidth, 320)
        XCTAssertEqual(info.codedHeight, 240)
        XCTAssertEqual(info.frameRate, 30, accuracy: 0.001)
        XCTAssertEqual(info.duration, 2.0, accuracy: 1.0 / 30)
        XCTAssertEqual(info.startTime, 0)
        XCTAssertEqual(info.colour, VideoColour(transfer: "bt709", primaries: "bt709", matrix: "bt709", fullRange: false))
        XCTAssertTrue(info.hasAudio)

        let video = try FilmFixtures.streams(path, AVMEDIA_TYPE_VIDEO)
        XCTAssertEqual(video.count, 1)
        XCTAssertEqual(video.first?.profile, FF_PROFILE_H264_HIGH)
        let audio = try FilmFixtures.streams(path, AVMEDIA_TYPE_AUDIO)
        XCTAssertEqual(audio.count, 1)
        XCTAssertEqual(audio.first?.codec, "aac")
        XCTAssertEqual(audio.first?.sampleRate, 48_000)
        XCTAssertEqual(audio.first?.channels, 2)
        XCTAssertEqual(video.first?.seconds ?? 0, 2.0, accuracy: 1e-6, "the last frame lasts its 1/30 s")
        XCTAssertEqual(audio.first?.seconds ?? 0, 2.0, accuracy: 1e-6, "the sound ends with the pictures")

        let frames = try reader.frames(from: 0, to: 10).collect()
        XCTAssertEqual(frames.count, 60)
        for (i, frame) in frames.enumerated() {
            XCTAssertEqual(frame.time, Double(i) / 30, accuracy: 1e-6)
            let expected = Self.colours[i / 10]
            let seen = MediaFixtures.mean(frame.picture.rgb8, x: 140..<180, y: 100..<140)
            XCTAssertEqual(seen.r, Double(expected.r), accuracy: 3, "frame \(i) red")
            XCTAssertEqual(seen.g, Double(expected.g), accuracy: 3, "frame \(i) green")
            XCTAssertEqual(seen.b, Double(expected.b), accuracy: 3, "frame \(i) blue")
        }

        let boxes = FilmFixtures.topLevelBoxes(path)
        let moov = try XCTUnwrap(boxes.firstIndex(of: "moov")), mdat = try XCTUnwrap(boxes.firstIndex(of: "mdat"))
        XCTAssertLessThan(moov, mdat, "faststart: the index comes before the media data (\(boxes))")
    }

    func testFilmSoundIsTheToneItWasGiven() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        try Self.writeFilm(path)
        let sound = try XCTUnwrap(try AudioReader(path: path)).samples(from: 0.25, to: 1.75)
        XCTAssertEqual(sound.count, 2 * 72_000)
        for channel in 0..<2 {
            let side = FilmFixtures.side(sound, channel)
            XCTAssertEqual(FilmFixtures.frequency(side), 440, accuracy: 2)
            XCTAssertEqual(FilmFixtures.rms(side), 0.5 / 2.squareRoot(), accuracy: 0.02)
        }
    }

    // MARK: Sound that does not fit

    func testShortSoundIsPaddedWithSilence() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        try Self.writeFilm(path, frames: 30, sound: FilmFixtures.tone(seconds: 0.5))
        XCTAssertEqual(try FilmFixtures.streams(path, AVMEDIA_TYPE_AUDIO).first?.seconds ?? 0, 1.0, accuracy: 1e-6)
        let sound = try XCTUnwrap(try AudioReader(path: path))
        XCTAssertGreaterThan(FilmFixtures.rms(try sound.samples(from: 0.1, to: 0.4)), 0.3)
        XCTAssertLessThan(FilmFixtures.rms(try sound.samples(from: 0.6, to: 1.0)), 0.001)
    }

    func testLongSoundIsCut() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        try Self.writeFilm(path, fps: 25, frames: 25, sound: FilmFixtures.tone(seconds: 3))
        XCTAssertEqual(try FilmFixtures.streams(path, AVMEDIA_TYPE_VIDEO).first?.seconds ?? 0, 1.0, accuracy: 1e-6)
        XCTAssertEqual(try FilmFixtures.streams(path, AVMEDIA_TYPE_AUDIO).first?.seconds ?? 0, 1.0, accuracy: 1e-6)
    }

    func testFilmWithoutSound() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try FilmWriter(path: path, width: 64, height: 48, fps: 30, audio: false)
        try writer.append(RGBImage(width: 64, height: 48, fill: (10, 20, 30)))
        let error = MediaFixtures.glimtError { try writer.appendAudio([0, 0]) }
        XCTAssertEqual(error?.reason, "this film was opened without sound")
        XCTAssertEqual(error?.path, path)
        // The refusal ends the writer; a fresh one finishes a silent film.
        let silent = try FilmWriter(path: path, width: 64, height: 48, fps: 30, audio: false)
        for _ in 0..<3 { try silent.append(RGBImage(width: 64, height: 48, fill: (10, 20, 30))) }
        try silent.finish()
        XCTAssertFalse(try VideoReader(path: path).info.hasAudio)
        XCTAssertNil(try AudioReader(path: path))
    }

    func testNoSoundGivenIsSilence() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        try Self.writeFilm(path, frames: 15, sound: [])
        XCTAssertEqual(try FilmFixtures.streams(path, AVMEDIA_TYPE_AUDIO).first?.seconds ?? 0, 0.5, accuracy: 1e-6)
        XCTAssertEqual(FilmFixtures.rms(try XCTUnwrap(try AudioReader(path: path)).samples(from: 0, to: 0.5)), 0)
    }

    /// The name goes to FFmpeg as a `file:` URL, so a colon in it names no protocol.
    func testNameWithAColonIsAPlainFile() throws {
        let folder = temporaryFolder(self).path
        let path = folder + "/http:film.mp4"
        try Self.writeFilm(path, frames: 3, sound: nil)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["http:film.mp4"])
        XCTAssertEqual(try VideoReader(path: path).info.codecName, "h264")
    }

    /// Tags go into the container and read back as its metadata (glimt marks its films there).
    func testTagsAreWrittenIntoTheContainer() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try FilmWriter(path: path, width: 64, height: 48, fps: 10, audio: false, tags: ["comment": "glimt-pure 0.1.0"])
        for _ in 0..<3 { try writer.append(RGBImage(width: 64, height: 48, fill: (90, 90, 90))) }
        try writer.finish()
        XCTAssertEqual(try VideoReader(path: path).info.tags["comment"], "glimt-pure 0.1.0")
        let plain = temporaryFolder(self).path + "/plain.mp4"
        try Self.writeFilm(plain, frames: 3, sound: nil)
        XCTAssertNil(try VideoReader(path: plain).info.tags["comment"], "no tags asked, none written")
    }

    // MARK: Refusals

    func testOddSizeIsRefused() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let error = MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 321, height: 240, fps: 30) }
        XCTAssertEqual(error?.path, path)
        XCTAssertTrue(error?.reason.contains("must be even") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.reason.contains("321x240") == true)
        XCTAssertNotNil(MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 320, height: 241, fps: 30) })
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing written for a refused size")
    }

    func testOtherBadSettingsAreRefused() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let reasons = [
            MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 0, height: 240, fps: 30) },
            MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 320, height: 240, fps: 0) },
            MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 20_000, height: 240, fps: 30) },
            MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 8192, height: 8192, fps: 30) },
            MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 320, height: 240, fps: 30, quality: .init(crf: 0, preset: "medium")) },
            MediaFixtures.glimtError {
                _ = try FilmWriter(path: path, width: 320, height: 240, fps: 30, quality: .init(crf: .nan, preset: "medium"))
            },
            MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 320, height: 240, fps: 30, quality: .init(preset: "warp")) },
        ].map { $0?.reason ?? "" }
        XCTAssertEqual(
            reasons,
            [
                "film size must be even numbers from 16 to 8192 (H.264 4:2:0), not 0x240",
                "film frame rate must be from 1 to 120, not 0",
                "film size must be even numbers from 16 to 8192 (H.264 4:2:0), not 20000x240",
                "film size 8192x8192 is larger than H.264 allows (at most 139264 blocks of 16x16, e.g. 8192x4320)",
                "film quality crf must be from 1 to 51, not 0.0",
                "film quality crf must be from 1 to 51, not nan",
                "unknown x264 preset \"warp\" (use one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow)",
            ])
    }

    func testMissingFolderIsAClearError() throws {
        let folder = temporaryFolder(self).path + "/not-there"
        let path = folder + "/film.mp4"
        let error = MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 320, height: 240, fps: 30) }
        XCTAssertEqual(error?.description, "\(path): cannot write: the folder \(folder) does not exist")
    }

    func testFolderInTheWayIsAClearError() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = MediaFixtures.glimtError { _ = try FilmWriter(path: path, width: 320, height: 240, fps: 30) }
        XCTAssertEqual(error?.path, path)
        XCTAssertTrue(error?.reason.hasPrefix("cannot write: ") == true, "\(String(describing: error))")
    }

    func testUnwritableFolderIsAClearError() throws {
        try XCTSkipIf(getuid() == 0, "root writes anywhere")
        let folder = temporaryFolder(self).path
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        let error = MediaFixtures.glimtError { _ = try FilmWriter(path: folder + "/film.mp4", width: 320, height: 240, fps: 30) }
        XCTAssertTrue(error?.reason.hasPrefix("cannot write: ") == true, "\(String(describing: error))")
    }

    func testWrongFrameSizeStopsTheWriter() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try FilmWriter(path: path, width: 64, height: 48, fps: 30)
        try writer.append(RGBImage(width: 64, height: 48))
        let error = MediaFixtures.glimtError { try writer.append(RGBImage(width: 48, height: 64)) }
        XCTAssertEqual(error?.description, "\(path): a 48x64 frame cannot go into a 64x48 film")
        XCTAssertEqual(MediaFixtures.glimtError { try writer.finish() }, error, "after an error the writer repeats it")
        XCTAssertEqual(writer.framesWritten, 1)
    }

    func testOddSoundChunkIsRefused() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try FilmWriter(path: path, width: 64, height: 48, fps: 30)
        let error = MediaFixtures.glimtError { try writer.appendAudio([0, 0, 0]) }
        XCTAssertEqual(error?.reason, "stereo sound needs an even number of samples, not 3")
    }

    func testWildSamplesAreTamed() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try FilmWriter(path: path, width: 64, height: 48, fps: 30)
        try writer.appendAudio(
            [Float](repeating: .nan, count: 4800) + [Float](repeating: .infinity, count: 4800) + [Float](repeating: -7, count: 4800))
        for _ in 0..<6 { try writer.append(RGBImage(width: 64, height: 48)) }
        try writer.finish()
        let sound = try XCTUnwrap(try AudioReader(path: path)).samples(from: 0, to: 0.2)
        XCTAssertTrue(sound.allSatisfy { $0.isFinite && abs($0) < 1.5 })
    }

    func testFinishingWithoutFramesIsRefused() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try FilmWriter(path: path, width: 64, height: 48, fps: 30)
        XCTAssertEqual(MediaFixtures.glimtError { try writer.finish() }?.reason, "cannot finish a film without any frames")
    }

    func testFinishedWriterTakesNoMore() throws {
        let path = temporaryFolder(self).path + "/film.mp4"
        let writer = try Self.writeFilm(path, frames: 3, sound: nil)
        XCTAssertEqual(MediaFixtures.glimtError { try writer.append(RGBImage(width: 320, height: 240)) }?.reason, "the film is already finished")
        XCTAssertEqual(try VideoReader(path: path).frames(from: 0, to: 1).collect().count, 3)
    }

    // MARK: Cancelling

    /// Cancelled or dropped midway, the writer frees everything and leaves only its partial
    /// file, which the caller deletes. (Run under valgrind, these rounds leak nothing.)
    func testCancellingMidwayLeavesOnlyThePartialFile() throws {
        let folder = temporaryFolder(self).path
        for round in 0..<20 {
            let path = folder + "/film-\(round).mp4"
            let writer = try FilmWriter(path: path, width: 160, height: 120, fps: 30)
            for i in 0..<(10 + round) {
                try writer.append(RGBImage(width: 160, height: 120, fill: Self.colours[i % Self.colours.count]))
                try writer.appendAudio(FilmFixtures.tone(seconds: 1.0 / 30))
            }
            if round % 2 == 0 {
                writer.cancel()
                XCTAssertEqual(MediaFixtures.glimtError { try writer.append(RGBImage(width: 160, height: 120)) }?.reason, "the film was cancelled")
                writer.cancel()  // twice is harmless
            }
            // Odd rounds: the writer is simply dropped here.
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(left, (0..<20).map { "film-\($0).mp4" }.sorted(), "only the partial files, no temporary ones")
        let partial = folder + "/film-0.mp4"
        XCTAssertGreaterThan(MediaFixtures.bytes(partial).count, 0)
        let error = MediaFixtures.glimtError { _ = try VideoReader(path: partial) }
        XCTAssertTrue(error?.reason.hasPrefix("truncated or corrupt") == true, "a cancelled film is not a finished one: \(String(describing: error))")
    }
}
