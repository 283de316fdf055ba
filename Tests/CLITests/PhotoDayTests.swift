import Foundation
import GlimtPure
import Imaging
import MediaIO
import TestSupport
import XCTest

/// Photos as days: the sample's clips (3-7 May 2024) and its photos (8-11 May, and one of 3 May),
/// each photo dated another way (EXIF with an offset, HEIC's EXIF item, a Takeout sidecar).
/// A day with no video of the person gets their photo, held for the second with a push.
final class PhotoDayTests: CLITestCase {
    private var sample: URL { Self.repositoryRoot.appendingPathComponent("Sample") }

    private func setUpLibrary() throws {
        let add = try glimt("reference", "add", sample.appendingPathComponent("reference.jpg").path, "--person", "Barack")
        XCTAssertEqual(add.status, 0, add.err)
        let scan = try glimt("scan", sample.appendingPathComponent("videos").path, sample.appendingPathComponent("photos").path, "--timezone", "UTC")
        XCTAssertEqual(scan.status, 0, scan.err)
        XCTAssertTrue(scan.out.hasPrefix("9 videos and 5 photos found: 14 analysed"), scan.out)
    }

    private func days(_ extra: [String] = []) throws -> [String: DayReport] {
        let days = try glimt(["days", "--json"] + extra)
        XCTAssertEqual(days.status, 0, days.err)
        return Dictionary(uniqueKeysWithValues: try JSONDecoder().decode([DayReport].self, from: Data(days.out.utf8)).map { ($0.day, $0) })
    }

    private func name(_ p: DayPick?) -> String? { p.map { URL(fileURLWithPath: $0.video).lastPathComponent } }

    func testPhotoOnlyDaysAreFilledWithThePersonsPhotoAndVideoDaysKeepTheirVideo() throws {
        try setUpLibrary()
        let days = try days()
        for (day, photo, source) in [
            ("2024-05-08", "IMG_0101.JPG", CaptureDate.Source.exif), ("2024-05-09", "IMG_0102.HEIC", .exif),
            ("2024-05-10", "PXL_0103.jpg", .takeoutSidecar),
        ] {
            let r = try XCTUnwrap(days[day], day)
            XCTAssertEqual(r.status, .picked, day)
            XCTAssertEqual(name(r.pick), photo, day)
            XCTAssertEqual(r.pick?.photo, true, day)
            XCTAssertEqual(r.pick?.dateSource, source, day)
            XCTAssertEqual(r.pick?.identity?.containsPerson, true, day)
            XCTAssertEqual(r.candidates.first?.kind, .photo)
        }
        // Biden alone: one picture is one frame, and no frame of him is Barack's.
        XCTAssertEqual(days["2024-05-11"]?.status, .noPerson)
        XCTAssertEqual(days["2024-05-11"]?.reason, "Barack is in none of its 1 photo")
        XCTAssertTrue(try glimt("status").out.hasPrefix("library: \(library.appendingPathComponent("glimt").path): 9 videos and 5 photos"))
        // A day with a video of him keeps it; the photo of that day only competes when asked.
        XCTAssertEqual(name(days["2024-05-03"]?.pick), "podium.mp4")
        XCTAssertEqual(days["2024-05-03"]?.candidates.count, 3)
        XCTAssertEqual(name(try self.days(["--photos", "also"])["2024-05-03"]?.pick), "podium.mp4", "the video scores higher here")
        let never = try self.days(["--photos", "never"])
        XCTAssertNil(never["2024-05-08"]?.pick, "videos only")
        XCTAssertEqual(never["2024-05-08"]?.reason, "it has only photos, and --photos never leaves them out")

        // A photo is pinned without a time; a time is refused.
        let pin = try glimt("pick", "2024-05-03", "--video", sample.appendingPathComponent("photos/IMG_0105.JPG").path)
        XCTAssertEqual(pin.status, 0, pin.err)
        XCTAssertTrue(pin.out.hasSuffix("IMG_0105.JPG (photo)\n"), pin.out)
        XCTAssertEqual(name(try self.days()["2024-05-03"]?.pick), "IMG_0105.JPG")
        let timed = try glimt("pick", "2024-05-03", "--video", sample.appendingPathComponent("photos/IMG_0105.JPG").path, "--at", "0.5")
        XCTAssertEqual(timed.status, 1)
        XCTAssertTrue(timed.err.hasSuffix("IMG_0105.JPG: is a photo, held for its day's second: it takes no --at\n"), timed.err)
    }

    /// Without a library, a film of folders takes their photos the same way.
    func testAFilmOfFoldersFillsItsDaysWithoutVideoWithPhotos() throws {
        let film = library.appendingPathComponent("film.mp4").path
        let made = try glimt(
            "film", sample.appendingPathComponent("videos").path, sample.appendingPathComponent("photos").path, "--ref",
            sample.appendingPathComponent("reference.jpg").path, "--out", film, "--size", "180x320", "--timezone", "UTC")
        XCTAssertEqual(made.status, 0, made.err)
        let photos = made.out.split(separator: "\n").filter { $0.hasSuffix("(photo)") }.map { String($0.prefix(12)) }
        XCTAssertEqual(photos, ["  2024-05-08", "  2024-05-09", "  2024-05-10"], made.out)
        let never = try glimt(
            "analyze", sample.appendingPathComponent("photos").path, "--ref", sample.appendingPathComponent("reference.jpg").path, "--photos",
            "never")
        XCTAssertEqual(never.status, 0, never.err)
        XCTAssertTrue(never.out.hasPrefix("5 photos analysed, 0 days picked"), never.out)
        XCTAssertTrue(never.out.contains("2024-05-08  no pick: it has only photos, and --photos never leaves them out"), never.out)
    }

    /// A group photo as a phone takes it: 12 megapixels, the person one of two small faces (the
    /// sample's two-people photo pasted at 18 % of its width, his face about 90 pixels high).
    /// Looked at on the videos' 640 px his face would be 14 pixels; photos are looked at on more.
    func testThePersonIsFoundAmongOthersInALargePhoto() throws {
        let group = try ImageDecoder.decode(path: sample.appendingPathComponent("photos/IMG_0102.HEIC").path)
        var canvas = RGBImage(width: 4032, height: 3024, fill: (90, 110, 120))
        canvas.paste(group, x: 1200, y: 900)
        let photos = library.appendingPathComponent("phone")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try ImageEncoder.writeJPEG(canvas, to: photos.appendingPathComponent("IMG_20230701_120000.jpg").path)
        XCTAssertEqual(try glimt("reference", "add", sample.appendingPathComponent("reference.jpg").path, "--person", "Barack").status, 0)
        let scan = try glimt("scan", photos.path)
        XCTAssertEqual(scan.status, 0, scan.err)
        let day = try XCTUnwrap(try days()["2023-07-01"])
        XCTAssertEqual(day.status, .picked, day.reason ?? "")
        XCTAssertEqual(day.pick?.dateSource, .fileName)
    }

    /// Both films of one library (its scan of the sample is most of each check's time, and
    /// neither film changes the library): the plain one, then the one aligned by the eyes.
    func testAFilmShowsEachPhotoDayWithThePersonAndMovingAndAlignedEyesHoldIt() throws {
        try setUpLibrary()
        try assertAFilmShowsEachPhotoDayWithThePersonAndMoving()
        try assertAlignedEyesPutAPhotosEyesWhereTheVideosAre()
    }

    /// The film has a second for each photo day, and each shows him (his face matches the
    /// reference in the film's own frames) and moves: its last frame is its first pushed in by
    /// `PhotoSecond.push` (found by trying zooms about the face's place, whichever matches best).
    private func assertAFilmShowsEachPhotoDayWithThePersonAndMoving() throws {
        let film = library.appendingPathComponent("film.mp4").path
        let made = try glimt("film", "--out", film, "--size", "360x640")
        XCTAssertEqual(made.status, 0, made.err)
        let lines = made.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasSuffix("(photo)") }.count, 3, made.out)
        XCTAssertTrue(lines[0].hasPrefix("wrote \(film): 7 days"), made.out)
        // Seconds 4, 5 and 6 are 8, 9 and 10 May.
        for second in 4...6 {
            let first = try frame(of: film, at: Double(second)), last = try frame(of: film, at: Double(second) + 0.96)
            XCTAssertGreaterThanOrEqual(try cosine(first, at: Double(second)), 0.45, "second \(second) shows Barack")
            let zoom = Self.zoom(from: first, to: last, about: (0.5, 0.42))
            XCTAssertEqual(zoom, 1.08, accuracy: 0.006, "second \(second) pushes in by 8 % over the second")
        }
    }

    /// With `--align eyes` a photo's second is aligned like the videos': its eyes where theirs
    /// are (found in the film's frames by `faces`), and held still rather than pushed.
    private func assertAlignedEyesPutAPhotosEyesWhereTheVideosAre() throws {
        let film = library.appendingPathComponent("aligned.mp4").path
        let made = try glimt("film", "--out", film, "--size", "360x640", "--align", "eyes")
        XCTAssertEqual(made.status, 0, made.err)
        var middles: [(x: Double, y: Double)] = []
        for second in 0...6 {
            let image = try frame(of: film, at: Double(second) + 0.5)
            let png = library.appendingPathComponent("eyes_\(second).png").path
            try ImageEncoder.writePNG(image, to: png)
            let faces = try glimt("faces", png, "--json")
            let found = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as? [String: Any])["faces"] as? [[String: Any]] ?? []
            // The face whose eyes are nearest where the film puts them.
            let eyes = found.compactMap { f -> (x: Double, y: Double)? in
                guard let l = f["landmarks"] as? [[String: Double]], l.count >= 2 else { return nil }
                return ((l[0]["x"]! + l[1]["x"]!) / 2, (l[0]["y"]! + l[1]["y"]!) / 2)
            }.min { abs($0.x - 180) + abs($0.y - 256) < abs($1.x - 180) + abs($1.y - 256) }
            middles.append(try XCTUnwrap(eyes, "a face in second \(second)"))
        }
        for (second, m) in middles.enumerated() {
            XCTAssertEqual(m.x, 180, accuracy: 0.02 * 640, "second \(second)'s eyes across")
            XCTAssertEqual(m.y, 0.4 * 640, accuracy: 0.02 * 640, "second \(second)'s eyes down")
        }
        XCTAssertEqual(Self.zoom(from: try frame(of: film, at: 5), to: try frame(of: film, at: 5.96), about: (0.5, 0.4)), 1, "held still")
    }

    private func frame(of film: String, at time: Double) throws -> RGBImage {
        let frames = try VideoReader(path: film).frames(every: 1e-3, longSide: 4096, from: time, to: time + 0.03)
        return try XCTUnwrap(try frames.next(), "a frame at \(time) s").image
    }

    /// The best cosine to the library's reference of a face in `image`, by `faces --match`.
    private func cosine(_ image: RGBImage, at time: Double) throws -> Double {
        let png = library.appendingPathComponent(String(format: "frame_%.2f.png", time)).path
        try ImageEncoder.writePNG(image, to: png)
        let faces = try glimt("faces", png, "--match", "--json")
        XCTAssertEqual(faces.status, 0, faces.err)
        let found = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as? [String: Any])["faces"] as? [[String: Any]] ?? []
        return found.compactMap { ($0["match"] as? [String: Any])?["cosine"] as? Double }.max() ?? -1
    }

    /// The zoom (1 to 1.15, in steps of 0.0025) about `focus` (shares of the width and height)
    /// that turns `a` into `b` best: the least squared difference of their grey levels.
    static func zoom(from a: RGBImage, to b: RGBImage, about focus: (Double, Double)) -> Double {
        func grey(_ im: RGBImage, _ x: Int, _ y: Int) -> Double {
            let p = im.pixel(min(max(x, 0), im.width - 1), min(max(y, 0), im.height - 1))
            return 0.299 * Double(p.r) + 0.587 * Double(p.g) + 0.114 * Double(p.b)
        }
        let px = focus.0 * Double(a.width), py = focus.1 * Double(a.height)
        var best = (zoom: 1.0, error: Double.infinity)
        for step in 0...60 {
            let z = 1 + Double(step) * 0.0025
            var error = 0.0
            for y in stride(from: a.height / 8, to: a.height * 7 / 8, by: 2) {
                for x in stride(from: a.width / 8, to: a.width * 7 / 8, by: 2) {
                    // Where b's pixel lies in a, read bilinearly.
                    let sx = px + (Double(x) - px) / z, sy = py + (Double(y) - py) / z
                    let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down)), fx = sx - Double(x0), fy = sy - Double(y0)
                    let v =
                        (grey(a, x0, y0) * (1 - fx) + grey(a, x0 + 1, y0) * fx) * (1 - fy)
                        + (grey(a, x0, y0 + 1) * (1 - fx) + grey(a, x0 + 1, y0 + 1) * fx) * fy
                    let d = grey(b, x, y) - v
                    error += d * d
                }
            }
            if error < best.error { best = (z, error) }
        }
        return best.zoom
    }
}
