import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// The film, decoded back through FFmpeg: length, order, size, streams, formats, no black first
/// frames, and an HDR clip tone-mapped to a sane SDR brightness.
final class FilmRendererTests: XCTestCase {
    /// A clip of one flat colour (a marker that says which day a segment came from).
    private func markerClip(
        _ folder: URL, _ name: String, width: Int, height: Int, fps: Int, seconds: Double, colour: RGB, audio: Bool
    ) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let writer = try FilmWriter(
            path: path, width: width, height: height, fps: fps, audio: audio, quality: FilmQuality(crf: 18, preset: "ultrafast"))
        let frame = RGBImage(width: width, height: height, fill: (colour.r, colour.g, colour.b))
        let frames = Int(seconds * Double(fps))
        for _ in 0..<frames { try writer.append(frame) }
        if audio {
            let n = FilmWriter.audioSamples(forFrames: frames, fps: fps)
            try writer.appendAudio(
                (0..<n).flatMap { i -> [Float] in
                    let v = Float(sin(Double(i) * 2 * .pi * 440 / 48_000) * 0.3); return [v, v]
                })
        }
        try writer.finish()
        return path
    }

    private func meanRGB(_ im: RGBImage) -> (Double, Double, Double) {
        var s = (0.0, 0.0, 0.0)
        for i in stride(from: 0, to: im.pixels.count, by: 3) {
            s.0 += Double(im.pixels[i]); s.1 += Double(im.pixels[i + 1]); s.2 += Double(im.pixels[i + 2])
        }
        let n = Double(im.pixels.count / 3)
        return (s.0 / n, s.1 / n, s.2 / n)
    }

    private func luma(_ c: (Double, Double, Double)) -> Double { 0.299 * c.0 + 0.587 * c.1 + 0.114 * c.2 }

    func testFilmFromMixedClipsDecodesBackAsAsked() throws {
        let folder = temporaryFolder(self)
        let red = try markerClip(folder, "red.mp4", width: 320, height: 240, fps: 25, seconds: 2, colour: RGB(200, 40, 40), audio: true)
        let green = try markerClip(folder, "green.mp4", width: 640, height: 360, fps: 60, seconds: 2, colour: RGB(40, 190, 60), audio: false)
        let blue = try markerClip(folder, "blue.mp4", width: 202, height: 360, fps: 24, seconds: 2, colour: RGB(40, 60, 200), audio: true)
        let portrait = Fixtures.url("media/h264_portrait.mp4").path  // stored sideways, 90° display matrix
        let hdr = Fixtures.url("analysis/hevc10.mp4").path  // HEVC Main 10, HLG / BT.2020, a lit face
        func whole(_ path: String) throws -> Box {
            let info = try VideoReader(path: path).info
            return Box(x: 0, y: 0, width: Float(info.displayWidth), height: Float(info.displayHeight))
        }
        let segments = [
            FilmSegment(day: "2024-05-01", video: red, start: 0.5, crop: try whole(red)),
            FilmSegment(day: "2024-05-02", video: green, start: 0.25, crop: try whole(green)),
            FilmSegment(day: "2024-05-03", video: portrait, start: 0.4, crop: try whole(portrait)),
            FilmSegment(day: "2024-05-04", video: blue, start: 0.9, crop: try whole(blue)),
            FilmSegment(day: "2024-05-05", video: hdr, start: 0.5, crop: try whole(hdr)),
        ]
        var options = FilmOptions()
        (options.width, options.height, options.fps, options.preset) = (180, 320, 30, "ultrafast")
        let out = folder.appendingPathComponent("film.mp4").path
        var progressed = 0
        try FilmRenderer(options: options).render(segments, to: out) { _ in progressed += 1 }
        XCTAssertEqual(progressed, 150, "progress after every frame")

        let film = try VideoReader(path: out)
        let info = film.info
        XCTAssertEqual(info.codecName, "h264")
        XCTAssertEqual(info.pixelFormat, "yuv420p")
        XCTAssertEqual(info.bitDepth, 8)
        XCTAssertEqual([info.displayWidth, info.displayHeight], [180, 320])
        XCTAssertEqual(info.duration, 5.0, accuracy: 1.0 / 30, "days x seconds")
        XCTAssertTrue(info.hasAudio)
        XCTAssertEqual(info.videoStreams, 1)
        XCTAssertEqual(info.audioStreams, 1)
        XCTAssertEqual(info.profile, "High")
        let sound = try XCTUnwrap(try AudioReader(path: out))
        XCTAssertEqual(sound.codecName, "aac")
        XCTAssertEqual(sound.sourceSampleRate, 48_000)
        XCTAssertEqual(sound.sourceChannels, 2)

        let frames = try film.frames(from: 0, to: 10, depth: .eightBit).collect()
        XCTAssertEqual(frames.count, 150)
        let images = frames.map(\.picture.rgb8)
        // Each day's marker colour fills its second, in day order, from its first frame on.
        for (segment, want) in [(0, (200.0, 40.0, 40.0)), (1, (40.0, 190.0, 60.0)), (3, (40.0, 60.0, 200.0))] {
            for k in [0, 15, 29] {
                let got = meanRGB(images[segment * 30 + k])
                XCTAssertEqual(got.0, want.0, accuracy: 12, "day \(segment + 1) frame \(k): \(got)")
                XCTAssertEqual(got.1, want.1, accuracy: 12, "day \(segment + 1) frame \(k): \(got)")
                XCTAssertEqual(got.2, want.2, accuracy: 12, "day \(segment + 1) frame \(k): \(got)")
            }
        }
        // No black lead-in: the first frame of every segment is as bright as the rest of it.
        for segment in 0..<5 {
            let first = luma(meanRGB(images[segment * 30])), middle = luma(meanRGB(images[segment * 30 + 15]))
            XCTAssertGreaterThan(first, max(8, 0.7 * middle), "segment \(segment + 1) starts black (\(first) vs \(middle))")
        }
        // The portrait clip is upright: it matches the upright source frame, not a sideways one.
        let source = try VideoReader(path: portrait).frames(from: 0.4, to: 0.45, depth: .eightBit).collect()[0].picture.rgb8
        let expected = Resize.resize(source, width: 180, height: 320)
        let diff = zip(images[60].pixels, expected.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(expected.pixels.count)
        XCTAssertLessThan(diff, 12, "portrait segment matches its upright source (mean difference \(diff))")
        // The HDR clip is tone-mapped: neither crushed nor washed out.
        let hdrLuma = (120..<150).map { luma(meanRGB(images[$0])) }.reduce(0, +) / 30
        XCTAssertTrue((40...200).contains(hdrLuma), "tone-mapped HDR mean luma \(hdrLuma)")
    }

    func testCaptionIsBurnedIn() throws {
        let folder = temporaryFolder(self)
        let grey = try markerClip(folder, "grey.mp4", width: 320, height: 240, fps: 30, seconds: 1.5, colour: RGB(128, 128, 128), audio: false)
        var options = FilmOptions()
        (options.width, options.height, options.preset, options.caption, options.audio) = (180, 320, "ultrafast", .date, false)
        let out = folder.appendingPathComponent("captioned.mp4").path
        try FilmRenderer(options: options).render(
            [FilmSegment(day: "2024-05-17", video: grey, start: 0, crop: Box(x: 0, y: 0, width: 320, height: 240))], to: out)
        XCTAssertEqual(Caption.text(forDay: "2024-05-17"), "FRI 17 MAY 2024")
        let frame = try VideoReader(path: out).frames(from: 0, to: 0.1, depth: .eightBit).collect()[0].picture.rgb8
        // White text on the bottom band: some pixels far brighter than the grey clip.
        let bottom = Crop.crop(frame, x: 0, y: 250, width: 180, height: 70)
        XCTAssertGreaterThan(bottom.pixels.filter { $0 > 220 }.count, 100)
        XCTAssertFalse(try VideoReader(path: out).info.hasAudio, "--mute writes no sound")
    }

    func testFailedRenderLeavesNothingUnderTheOutputName() throws {
        let folder = temporaryFolder(self)
        let out = folder.appendingPathComponent("film.mp4").path
        let missing = FilmSegment(
            day: "2024-05-01", video: folder.appendingPathComponent("gone.mp4").path, start: 0, crop: Box(x: 0, y: 0, width: 10, height: 10))
        XCTAssertThrowsError(try FilmRenderer(options: FilmOptions()).render([missing], to: out))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no film and no temporary file left")
        XCTAssertThrowsError(
            try FilmRenderer(
                options: {
                    var o = FilmOptions(); o.width = 181; return o
                }()))
    }

    /// A crop from a hand-edited picks file that lies outside the video's picture is refused,
    /// naming the video and its size, instead of being quietly moved.
    func testACropOutsideThePictureIsRefused() throws {
        let folder = temporaryFolder(self)
        let clip = Fixtures.url("analysis/two_people.mp4").path
        let info = try VideoReader(path: clip).info
        let outside = FilmSegment(
            day: "2024-05-01", video: clip, start: 0,
            crop: Box(x: Float(info.displayWidth) - 50, y: 0, width: 200, height: 200))
        var options = FilmOptions()
        (options.width, options.height, options.audio) = (180, 320, false)
        let out = folder.appendingPathComponent("film.mp4").path
        XCTAssertThrowsError(try FilmRenderer(options: options).render([outside], to: out)) { error in
            XCTAssertEqual((error as? GlimtError)?.path, clip)
            XCTAssertTrue("\(error)".contains("lies outside the video's \(info.displayWidth)x\(info.displayHeight) picture"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testAudioFadesAtTheCuts() {
        let loud = [Float](repeating: 1, count: 2 * 4800)
        let faded = FilmRenderer.faded(loud, rate: 48_000)
        XCTAssertEqual(faded[0], 0)
        XCTAssertEqual(faded[faded.count - 1], 0, accuracy: 0.01)
        XCTAssertEqual(faded[2 * 2400], 1)
    }

    func testTimestampResamplingKeepsClipsAtTheirLength() throws {
        // 60 fps and 24 fps sources both give exactly fps x seconds output frames.
        let folder = temporaryFolder(self)
        var options = FilmOptions()
        (options.width, options.height, options.fps, options.seconds, options.preset, options.audio) = (160, 160, 25, 0.6, "ultrafast", false)
        let fast = try markerClip(folder, "fast.mp4", width: 160, height: 160, fps: 60, seconds: 1, colour: RGB(90, 90, 90), audio: false)
        let slow = try markerClip(folder, "slow.mp4", width: 160, height: 160, fps: 24, seconds: 1, colour: RGB(90, 90, 90), audio: false)
        let out = folder.appendingPathComponent("f.mp4").path
        try FilmRenderer(options: options).render(
            [fast, slow].enumerated().map {
                FilmSegment(day: "2024-05-0\($0.offset + 1)", video: $0.element, start: 0.2, crop: Box(x: 0, y: 0, width: 160, height: 160))
            }, to: out)
        XCTAssertEqual(try VideoReader(path: out).frames(from: 0, to: 10, depth: .eightBit).collect().count, 30)
    }
}
