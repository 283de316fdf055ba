import Foundation
import TestSupport
import XCTest

@testable import Film
@testable import Imaging
@testable import MediaIO

/// Slow motion in the film is real time: a 120 fps file's second is one second of film, and a
/// file stored slowed down (captured at 120, playing at 30) is played 4x.
final class FilmSpeedTests: XCTestCase {
    private let colours: [(UInt8, UInt8, UInt8)] = [(220, 30, 30), (30, 200, 40), (30, 40, 220), (230, 230, 230), (20, 20, 20), (220, 200, 30)]

    /// `seconds` seconds at `fps`, one flat colour per `step` seconds, in `colours`' order.
    private func steppedClip(_ folder: URL, fps: Int, seconds: Double, step: Double) throws -> String {
        let path = folder.appendingPathComponent("stepped_\(fps).mp4").path
        let writer = try FilmWriter(path: path, width: 96, height: 64, fps: fps, audio: false, quality: FilmQuality(crf: 18, preset: "ultrafast"))
        for i in 0..<Int(seconds * Double(fps)) {
            let c = colours[min(Int(Double(i) / Double(fps) / step), colours.count - 1)]
            try writer.append(RGBImage(width: 96, height: 64, fill: c))
        }
        try writer.finish()
        return path
    }

    /// Which of `colours` each film frame shows.
    private func shownColours(_ film: String) throws -> [Int] {
        try VideoReader(path: film).frames(from: 0, to: 10, depth: .eightBit).collect().map { f in
            let im = f.picture.rgb8
            var s = (0.0, 0.0, 0.0)
            for i in stride(from: 0, to: im.pixels.count, by: 3) {
                s.0 += Double(im.pixels[i]); s.1 += Double(im.pixels[i + 1]); s.2 += Double(im.pixels[i + 2])
            }
            let n = Double(im.pixels.count / 3)
            return colours.indices.min { a, b in
                func d(_ c: (UInt8, UInt8, UInt8)) -> Double { abs(s.0 / n - Double(c.0)) + abs(s.1 / n - Double(c.1)) + abs(s.2 / n - Double(c.2)) }
                return d(colours[a]) < d(colours[b])
            }!
        }
    }

    private func render(_ clip: String, speed: Double?) throws -> [Int] {
        let out = temporaryFolder(self).appendingPathComponent("film.mp4").path
        var options = FilmOptions()
        (options.width, options.height, options.fps, options.preset, options.audio) = (96, 64, 30, "ultrafast", false)
        try FilmRenderer(options: options).render(
            [FilmSegment(day: "2024-05-05", video: clip, start: 0, crop: Box(x: 0, y: 0, width: 96, height: 64), speed: speed)], to: out)
        return try shownColours(out)
    }

    func testAHighFrameRateFileGivesARealTimeSecond() throws {
        let clip = try steppedClip(temporaryFolder(self), fps: 120, seconds: 2, step: 0.5)
        let shown = try render(clip, speed: nil)
        XCTAssertEqual(shown.count, 30, "one second at 30 fps")
        // Frame k shows t = k / 30: half a second per colour, so 15 frames each.
        XCTAssertEqual(shown, [Int](repeating: 0, count: 15) + [Int](repeating: 1, count: 15))
    }

    func testAFileStoredSlowedDownIsPlayedFaster() throws {
        let clip = try steppedClip(temporaryFolder(self), fps: 30, seconds: 6, step: 1)
        let shown = try render(clip, speed: 4)
        XCTAssertEqual(shown.count, 30, "still one second of film")
        // Frame k shows t = 4k / 30: the clip spans 4 seconds of the file, about 7.5 frames per colour.
        XCTAssertEqual(shown.first, 0)
        XCTAssertEqual(shown.last, 3, "the last frame shows the file's fourth second (\(shown))")
        XCTAssertEqual(Set(shown), [0, 1, 2, 3])
        XCTAssertEqual(try render(clip, speed: nil), [Int](repeating: 0, count: 30), "at speed 1 the same second is one colour")
    }
}
