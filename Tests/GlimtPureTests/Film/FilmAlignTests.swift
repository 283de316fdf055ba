import AnalysisEngine
import Film
import Foundation
import GlimtCore
import Imaging
import TestSupport
import XCTest

@testable import GlimtPure

/// `film --align eyes`: the person's eyes stay at one place and size through every second and
/// across days, as a detector finds them in the film itself; a second without usable eyes keeps
/// its ordinary framing and is named.
final class FilmAlignTests: XCTestCase {
    private let width = 720, height = 1280

    /// A day's clip of `video`, framed on the whole picture as a pick of the film's shape is.
    private func segment(_ day: String, _ video: String, at start: Double) throws -> FilmSegment {
        let size = try StillFrame.size(of: video)
        let whole = Box(x: 0, y: 0, width: Float(size.width), height: Float(size.height))
        return FilmSegment(
            day: day, video: video, start: start,
            crop: FilmSegment.refit(whole, aspect: Float(width) / Float(height), frameWidth: size.width, frameHeight: size.height))
    }

    private func render(_ segments: [FilmSegment], align: FilmOptions.Align) throws -> (film: String, notes: [FileProblem]) {
        var film = FilmOptions()
        (film.width, film.height) = (width, height)
        film.audio = false
        film.align = align
        let out = temporaryFolder(self).appendingPathComponent("film.mp4").path
        var notes: [FileProblem] = []
        try FilmJob(film: film, output: out, fromDay: nil, toDay: nil).render(segments, report: { notes.append($0) })
        return (out, notes)
    }

    /// The eye midpoint (as shares of the film's height) and eye distance in every frame of the
    /// film where the face is found, and the share of frames where it is.
    private func eyes(in film: String, frames: Int) throws -> (mid: [Point], distance: [Float], found: Float) {
        let whole = Box(x: 0, y: 0, width: Float(width), height: Float(height))
        let seen = try FollowedEyes.find(path: film, start: 0, length: 100, crop: whole).compactMap(\.landmarks)
        let h = Float(height)
        let mid = seen.map { Point(($0[0].x + $0[1].x) / 2 / h, ($0[0].y + $0[1].y) / 2 / h) }
        let distance = seen.map { (($0[0].x - $0[1].x) * ($0[0].x - $0[1].x) + ($0[0].y - $0[1].y) * ($0[0].y - $0[1].y)).squareRoot() }
        return (mid, distance, Float(seen.count) / Float(frames))
    }

    private func median(_ v: [Float]) -> Float { v.sorted()[v.count / 2] }

    /// Three days from two real videos (a talking head filmed at 320x320, a zoom into a portrait
    /// photo at 320x180): the eye midpoint stays within 2 % of the film's height in every frame,
    /// and the eye distance within 12 % of its median and at the film's eye distance, where the
    /// steady framing of the same picks moves the eyes by more than 5 % of the height. (YuNet's own
    /// eye distance of these small faces jumps by up to 14 % from one frame to the next: 5 % is
    /// the promise for the figures of `tools/align/measure_eyes.py` over real films, not for a
    /// frame of a 320-pixel clip.)
    func testTheEyesStayInOnePlaceAcrossDays() throws {
        let segments = [
            try segment("2024-05-01", Fixtures.path("moment/blink.mp4"), at: 0.1),
            try segment("2024-05-02", Fixtures.path("moment/speech.mp4"), at: 1.0),
            try segment("2024-05-03", Fixtures.path("moment/blink.mp4"), at: 1.3),
        ]
        let frames = 3 * FilmOptions().framesPerClip
        let aligned = try render(segments, align: .eyes)
        XCTAssertEqual(aligned.notes.map(\.reason), [], "every second shows the eyes, big enough")
        let e = try eyes(in: aligned.film, frames: frames)
        XCTAssertGreaterThan(e.found, 0.95, "the face is found in the film's frames")
        let mx = median(e.mid.map(\.x)), my = median(e.mid.map(\.y)), md = median(e.distance)
        XCTAssertLessThan(e.mid.map { abs($0.x - mx) }.max()!, 0.02, "midpoint across")
        XCTAssertLessThan(e.mid.map { abs($0.y - my) }.max()!, 0.02, "midpoint down")
        let n = e.distance.count / 3
        XCTAssertLessThan(
            e.distance.map { abs($0 - md) / md }.max()!, 0.12,
            "eye distance: \((0..<3).map { d in e.distance[(d * n)..<((d + 1) * n)].map { String(format: "%.1f", $0) }.joined(separator: " ") })")
        XCTAssertEqual(mx, EyeAlignment.eyePoint.x * Float(width) / Float(height), accuracy: 0.01)
        XCTAssertEqual(my, EyeAlignment.eyePoint.y, accuracy: 0.01)
        XCTAssertEqual(md / Float(height), EyeAlignment.eyeDistance, accuracy: 0.1 * EyeAlignment.eyeDistance)

        let steady = try eyes(in: try render(segments, align: .none).film, frames: frames)
        let sx = median(steady.mid.map(\.x)), sy = median(steady.mid.map(\.y))
        XCTAssertGreaterThan(steady.mid.map { max(abs($0.x - sx), abs($0.y - sy)) }.max()!, 0.05, "without alignment the eyes move")
    }

    /// A second where no face is found keeps the pick's ordinary crop; the film is made, and the
    /// day is named in one line.
    func testASecondWithoutEyesKeepsItsFramingAndIsNamed() throws {
        let segments = [
            try segment("2024-05-01", Fixtures.path("moment/blink.mp4"), at: 0.1),
            try segment("2024-05-02", Fixtures.path("media/h264_portrait.mp4"), at: 0.5),
        ]
        let aligned = try render(segments, align: .eyes)
        XCTAssertEqual(aligned.notes.count, 1, "\(aligned.notes)")
        XCTAssertEqual(aligned.notes.first?.path, Fixtures.path("media/h264_portrait.mp4"))
        XCTAssertTrue(aligned.notes.first?.reason.hasPrefix("2024-05-02: the person's eyes are found in ") == true, "\(aligned.notes)")
        XCTAssertTrue(aligned.notes.first?.reason.hasSuffix("too few to align; the second keeps its ordinary framing") == true)
        let steady = try render(segments, align: .none)
        // The faceless day's frames are the steady film's.
        let n = FilmOptions().framesPerClip
        func frame(_ film: String, _ k: Int) throws -> RGBImage {
            try StillFrame.at((Double(k) + 0.5) / Double(FilmOptions().fps), in: film)
        }
        for k in stride(from: n, to: 2 * n, by: 5) {
            XCTAssertLessThan(meanDifference(try frame(aligned.film, k), try frame(steady.film, k)), 2, "frame \(k)")
        }
        XCTAssertGreaterThan(
            meanDifference(try frame(aligned.film, n / 2), try frame(steady.film, n / 2)), 2, "the first day is aligned, so it differs")
    }

    private func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
    }
}
