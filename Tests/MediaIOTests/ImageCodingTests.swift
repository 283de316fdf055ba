import TestSupport
import XCTest

@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// ImageEncoder and ImageDecoder on real files: round trips, EXIF orientation, bad input.
final class ImageCodingTests: XCTestCase {
    // MARK: Encoding and decoding

    func testPNGRoundTripIsExact() throws {
        let folder = temporaryFolder(self).path
        for (w, h) in [(37, 23), (64, 48), (1, 1)] {
            let image = MediaFixtures.noisy(width: w, height: h, seed: UInt64(w))
            let path = folder + "/noise-\(w)x\(h).png"
            try ImageEncoder.writePNG(image, to: path)
            XCTAssertEqual(Array(MediaFixtures.bytes(path).prefix(4)), [0x89, 0x50, 0x4e, 0x47])
            XCTAssertEqual(try ImageDecoder.decode(path: path), image)
        }
    }

    func testJPEGRoundTripIsCloseAndQualityMatters() throws {
        let folder = temporaryFolder(self).path
        let image = MediaFixtures.smooth(width: 96, height: 64)
        try ImageEncoder.writeJPEG(image, to: folder + "/fine.jpg", quality: 95)
        try ImageEncoder.writeJPEG(image, to: folder + "/coarse.jpg", quality: 20)
        let fine = try ImageDecoder.decode(path: folder + "/fine.jpg")
        XCTAssertEqual(fine.width, 96)
        XCTAssertEqual(fine.height, 64)
        XCTAssertLessThan(meanAbsoluteError(fine, image), 2.5)
        let coarse = try ImageDecoder.decode(path: folder + "/coarse.jpg")
        XCTAssertLessThan(meanAbsoluteError(coarse, image), 8)
        XCTAssertLessThan(meanAbsoluteError(fine, image), meanAbsoluteError(coarse, image))
        // Detail costs bytes at high quality only.
        let detail = MediaFixtures.noisy(width: 96, height: 64)
        XCTAssertLessThan(try ImageEncoder.jpegData(detail, quality: 20).count * 2, try ImageEncoder.jpegData(detail, quality: 95).count)
    }

    /// Flat colours survive JPEG's full-range YUV both ways: a limited-range mistake would turn
    /// white into 235 or black into 16.
    func testJPEGKeepsFullRangeColours() throws {
        let folder = temporaryFolder(self).path
        let image = MediaFixtures.quadrants(width: 64, height: 64)
        try ImageEncoder.writeJPEG(image, to: folder + "/q.jpg", quality: 95)
        let decoded = try ImageDecoder.decode(path: folder + "/q.jpg")
        let corners: [(Range<Int>, Range<Int>, (Double, Double, Double))] = [
            (4..<28, 4..<28, (255, 0, 0)), (36..<60, 4..<28, (0, 255, 0)),
            (4..<28, 36..<60, (0, 0, 255)), (36..<60, 36..<60, (255, 255, 255)),
        ]
        for (x, y, want) in corners {
            let got = MediaFixtures.mean(decoded, x: x, y: y)
            XCTAssertEqual(got.r, want.0, accuracy: 3)
            XCTAssertEqual(got.g, want.1, accuracy: 3)
            XCTAssertEqual(got.b, want.2, accuracy: 3)
        }
        var black = RGBImage(width: 16, height: 16)
        try ImageEncoder.writeJPEG(black, to: folder + "/black.jpg")
        black = try ImageDecoder.decode(path: folder + "/black.jpg")
        XCTAssertLessThanOrEqual(black.pixels.max()!, 2)
    }

    func testWebPFixtureDecodes() throws {
        let image = try ImageDecoder.decode(path: Fixtures.path("media/photo.webp"))
        XCTAssertEqual(image.width, 96)
        XCTAssertGreaterThan(image.height, 60)
        let mean = MediaFixtures.mean(image, x: 0..<image.width, y: 0..<image.height)
        XCTAssertGreaterThan(mean.r + mean.g + mean.b, 100, "a real photo, not a black frame")
    }

    func testWriteReplacesAFileAndLeavesNoTemporaryFiles() throws {
        let folder = temporaryFolder(self).path
        let path = folder + "/out.png"
        try ImageEncoder.writePNG(MediaFixtures.quadrants(), to: path)
        try ImageEncoder.writePNG(MediaFixtures.noisy(width: 8, height: 8), to: path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["out.png"])
        XCTAssertEqual(try ImageDecoder.decode(path: path).width, 8)
        let error = MediaFixtures.glimtError { try ImageEncoder.writeJPEG(MediaFixtures.quadrants(), to: folder + "/missing/out.jpg") }
        XCTAssertEqual(error?.path, folder + "/missing/out.jpg")
        XCTAssertTrue(error?.reason.hasPrefix("cannot write") ?? false)
    }

    // MARK: EXIF orientation

    /// All eight EXIF orientations in both TIFF byte orders: the decoded picture is the plain
    /// one turned as EXIF says, and its quadrants land where the definition puts them.
    func testEXIFOrientationAllEightValuesBothByteOrders() throws {
        let folder = temporaryFolder(self).path
        let plain = try ImageEncoder.jpegData(MediaFixtures.quadrants(width: 64, height: 48), quality: 95)
        let plainPath = MediaFixtures.write(plain, folder, "plain.jpg")
        let stored = try ImageDecoder.decode(path: plainPath)
        for value in 1...8 {
            let orientation = ImageOrientation(rawValue: value)!
            for littleEndian in [false, true] {
                let bytes = MediaFixtures.inserting(MediaFixtures.exifSegment(orientation: UInt16(value), littleEndian: littleEndian), into: plain)
                let path = MediaFixtures.write(bytes, folder, "o\(value)\(littleEndian ? "le" : "be").jpg")
                let upright = try ImageDecoder.decode(path: path)
                XCTAssertEqual(upright, orientation.apply(to: stored), "orientation \(value), little-endian \(littleEndian)")
                XCTAssertEqual(MediaFixtures.quadrantLetters(upright), OrientationTests.expectedQuadrants[orientation])
                XCTAssertEqual(upright.width, value >= 5 ? 48 : 64)
            }
        }
    }

    /// Broken and hostile EXIF blocks must never crash decoding: each decodes (upright or as
    /// some valid orientation) or fails with a GlimtError.
    func testHostileEXIFNeverCrashes() throws {
        let folder = temporaryFolder(self).path
        let plain = try ImageEncoder.jpegData(MediaFixtures.quadrants(width: 32, height: 32), quality: 90)
        var segments: [[UInt8]] = [
            MediaFixtures.app1(payload: Array("Exif".utf8) + [0, 0]),  // no TIFF header
            MediaFixtures.app1(payload: Array("Exif".utf8) + [0, 0, 0x4d, 0x4d, 0, 42, 0xff, 0xff, 0xff, 0xf0]),  // IFD far outside
            MediaFixtures.app1(payload: Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xff, 0xff]),  // 65535 entries, none there
            MediaFixtures.app1(
                payload: Array("Exif".utf8) + [
                    0, 0, 0x4d, 0x4d, 0, 42, 0, 0, 0, 8,
                    0, 1, 0x01, 0x12, 0, 3, 0xff, 0xff, 0xff, 0xff, 0, 9, 0, 0, 0, 0, 0, 8,
                ]),  // huge count, loops
            MediaFixtures.app1(payload: Array("Exif".utf8) + [0, 0, 0x58, 0x58, 0, 42, 0, 0, 0, 8]),  // unknown byte order
            MediaFixtures.exifSegment(orientation: 9, littleEndian: true),  // out of range
            MediaFixtures.exifSegment(orientation: 0, littleEndian: false),
        ]
        // And a few hundred random mutations of a valid block.
        var state: UInt64 = 42
        let valid = MediaFixtures.exifSegment(orientation: 6, littleEndian: false)
        for _ in 0..<300 {
            var mutated = valid
            for _ in 0..<4 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let at = 4 + Int(state >> 33) % (mutated.count - 4)
                mutated[at] = UInt8(truncatingIfNeeded: state >> 13)
            }
            segments.append(mutated)
        }
        var decoded = 0
        for (i, segment) in segments.enumerated() {
            let path = MediaFixtures.write(MediaFixtures.inserting(segment, into: plain), folder, "hostile\(i).jpg")
            do {
                let image = try ImageDecoder.decode(path: path)
                XCTAssertEqual(image.width * image.height, 32 * 32)
                decoded += 1
            } catch let error as GlimtError {
                XCTAssertEqual(error.path, path)
            }
        }
        XCTAssertGreaterThan(decoded, segments.count / 2, "damaged EXIF should not cost the picture")
        for i in 0..<7 {
            XCTAssertNoThrow(try ImageDecoder.decode(path: folder + "/hostile\(i).jpg"), "hand-made case \(i)")
        }
    }

    // MARK: Refusals, each one line naming the file

    func testHEICIsReadWithoutAnFFmpegHEIFDemuxer() throws {
        // FFmpeg before 7.1 cannot demux HEIF; glimt's own reader takes it (HEIFImageTests has the rest).
        let image = try ImageDecoder.decode(path: Fixtures.path("media/photo.heic"))
        XCTAssertEqual([image.width, image.height], [96, 120])
    }

    func testHEIFBrandsAreRecognisedFromTheFtypBox() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let size = 16 + 4 * compatible.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        }
        XCTAssertEqual(HEIFBrand(fileStart: ftyp("heic", ["mif1", "heic"])), .heic)
        XCTAssertEqual(HEIFBrand(fileStart: ftyp("mif1", ["heic"])), .heic)
        XCTAssertEqual(HEIFBrand(fileStart: ftyp("avif", ["mif1", "avif"])), .avif)
        XCTAssertEqual(HEIFBrand(fileStart: ftyp("mif1", ["miaf"])), .heif)
        XCTAssertNil(HEIFBrand(fileStart: ftyp("isom", ["isom", "iso2", "avc1", "mp41"])))
        XCTAssertNil(HEIFBrand(fileStart: ftyp("qt  ", [])))
        XCTAssertNil(HEIFBrand(fileStart: [0, 0, 0, 0xff] + Array("ftyp".utf8) + Array("isom".utf8)))  // short
        XCTAssertNil(HEIFBrand(fileStart: [0, 0, 0x7f, 0xff] + Array("ftyp".utf8) + Array("isom".utf8) + [0, 0, 0, 0]))  // box longer than data
        XCTAssertEqual(HEIFBrand(contentsOf: Fixtures.path("media/photo.heic")), .heic)
        XCTAssertNil(HEIFBrand(contentsOf: Fixtures.path("media/h264_portrait.mp4")))
    }

    func testMissingEmptyAndFolderPaths() {
        let folder = temporaryFolder(self).path
        let missing = folder + "/nope.jpg"
        XCTAssertEqual(MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: missing) }, GlimtError("no such file", path: missing))
        let empty = MediaFixtures.write([], folder, "empty.jpg")
        XCTAssertEqual(MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: empty) }, GlimtError("empty file (0 bytes)", path: empty))
        XCTAssertEqual(MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: folder) }?.path, folder)
    }

    func testTextFileIsNotAPhoto() {
        let folder = temporaryFolder(self).path
        for name in ["notes.txt", "notes.jpg"] {
            let path = MediaFixtures.write(Array("Dear diary,\nToday I filmed one second.\n".utf8), folder, name)
            let error = MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: path) }
            XCTAssertEqual(error?.path, path)
            XCTAssertTrue(error?.reason.hasPrefix("not a photo or video") ?? false, "\(String(describing: error))")
        }
    }

    func testVideoAndSoundAreNotPhotos() {
        let video = Fixtures.path("media/h264_portrait.mp4")
        XCTAssertEqual(
            MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: video) }, GlimtError("is a video (h264), not a photo", path: video))
        let sound = Fixtures.path("media/audio_only.m4a")
        XCTAssertEqual(MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: sound) }, GlimtError("is a sound file, not a photo", path: sound))
    }

    func testTruncatedPhotosAreRefused() throws {
        let folder = temporaryFolder(self).path
        let image = MediaFixtures.noisy(width: 120, height: 90)
        for (name, bytes) in [
            ("cut.jpg", try ImageEncoder.jpegData(image)), ("cut.png", try ImageEncoder.pngData(image)),
            ("cut.webp", MediaFixtures.bytes(Fixtures.path("media/photo.webp"))),
        ] {
            for keep in [bytes.count * 3 / 10, bytes.count * 6 / 10, bytes.count * 9 / 10, bytes.count * 99 / 100, bytes.count - 2] {
                let path = MediaFixtures.write(Array(bytes.prefix(keep)), folder, "\(keep)-\(name)")
                let error = MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: path) }
                XCTAssertEqual(error?.path, path)
                XCTAssertTrue(error?.reason.hasPrefix("truncated or corrupt") ?? false, "\(String(describing: error))")
            }
        }
    }

    /// The end-marker walk accepts what real files carry after or inside a JPEG and never
    /// reads past the data, whatever the bytes.
    func testJPEGEndCheck() throws {
        let jpeg = try ImageEncoder.jpegData(MediaFixtures.quadrants(width: 16, height: 16))
        XCTAssertTrue(JPEGEndCheck.isComplete(bytes: jpeg))
        XCTAssertTrue(JPEGEndCheck.isComplete(bytes: jpeg + jpeg), "MPF: a second picture after the first")
        XCTAssertTrue(JPEGEndCheck.isComplete(bytes: jpeg + Array("trailer".utf8)))
        let thumbnail = MediaFixtures.app1(payload: Array("Exif".utf8) + [0, 0, 0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0] + jpeg)
        let withThumbnail = MediaFixtures.inserting(thumbnail, into: jpeg)
        XCTAssertTrue(JPEGEndCheck.isComplete(bytes: withThumbnail))
        XCTAssertFalse(
            JPEGEndCheck.isComplete(bytes: Array(withThumbnail.prefix(jpeg.count + thumbnail.count - 2))),
            "the thumbnail's end marker is not the picture's")
        for keep in 0..<(jpeg.count - 1) { XCTAssertFalse(JPEGEndCheck.isComplete(bytes: Array(jpeg.prefix(keep)))) }
        var state: UInt64 = 7
        for _ in 0..<2000 {
            var bytes = jpeg
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[Int(state >> 33) % bytes.count] = UInt8(truncatingIfNeeded: state >> 7)
            _ = JPEGEndCheck.isComplete(bytes: bytes)
        }
    }

    func testCorruptJPEGDataIsRefused() throws {
        let folder = temporaryFolder(self).path
        var bytes = try ImageEncoder.jpegData(MediaFixtures.noisy(width: 120, height: 90))
        // Scramble the middle of the entropy-coded data (markers stay intact).
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 200, by: 1) where bytes[i] != 0xff && bytes[i] != 0 {
            bytes[i] = 0xff
            bytes[i + 1] = UInt8(0xd0 + i % 8)
        }
        let path = MediaFixtures.write(bytes, folder, "scrambled.jpg")
        XCTAssertEqual(MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: path) }?.path, path)
    }

    func testAbsurdDimensionsAreRefusedBeforeAllocating() throws {
        let folder = temporaryFolder(self).path
        // A PNG header claiming 20000 x 20000 pixels, with almost no data behind it.
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let crc = crc32(body)
            return [UInt8(data.count >> 24), UInt8((data.count >> 16) & 0xff), UInt8((data.count >> 8) & 0xff), UInt8(data.count & 0xff)]
                + body + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xff), UInt8((crc >> 8) & 0xff), UInt8(crc & 0xff)]
        }
        let side: [UInt8] = [0, 0, 0x4e, 0x20]  // 20000
        let png =
            [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", side + side + [8, 2, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
        let path = MediaFixtures.write(png, folder, "huge.png")
        let error = MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: path) }
        XCTAssertEqual(error?.path, path)
        XCTAssertEqual(error?.reason, "picture too large: 20000x20000 is 400 MP, the limit is 100 MP")

        // And a JPEG whose frame header says 60000 x 60000.
        var jpeg = try ImageEncoder.jpegData(MediaFixtures.quadrants(width: 16, height: 16))
        let sof = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xff && jpeg[$0 + 1] == 0xc0 }!
        jpeg[sof + 5] = 0xea; jpeg[sof + 6] = 0x60; jpeg[sof + 7] = 0xea; jpeg[sof + 8] = 0x60
        let jpegPath = MediaFixtures.write(jpeg, folder, "huge.jpg")
        let jpegError = MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: jpegPath) }
        XCTAssertEqual(jpegError?.path, jpegPath)
        XCTAssertEqual(jpegError?.reason, "picture too large: 60000x60000 is 3600 MP, the limit is 100 MP")
    }

    /// A photo refused for its size is said as it is shown: stored 16000 wide and 8000 tall with
    /// an EXIF orientation that turns it (a phone held upright), it is 8000x16000.
    func testATooLargePhotoIsSaidAtTheSizeItIsShown() throws {
        let folder = temporaryFolder(self).path
        var jpeg = try ImageEncoder.jpegData(MediaFixtures.quadrants(width: 16, height: 16))
        let sof = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xff && jpeg[$0 + 1] == 0xc0 }!
        jpeg[sof + 5] = 0x1f; jpeg[sof + 6] = 0x40; jpeg[sof + 7] = 0x3e; jpeg[sof + 8] = 0x80
        for (orientation, shown) in [(6, "8000x16000"), (8, "8000x16000"), (1, "16000x8000"), (3, "16000x8000")] {
            let turned = MediaFixtures.inserting(MediaFixtures.exifSegment(orientation: UInt16(orientation), littleEndian: true), into: jpeg)
            let path = MediaFixtures.write(turned, folder, "tall-\(orientation).jpg")
            let error = MediaFixtures.glimtError { _ = try ImageDecoder.decode(path: path) }
            XCTAssertEqual(error?.reason, "picture too large: \(shown) is 128 MP, the limit is 100 MP", "orientation \(orientation)")
        }
    }

    private func meanAbsoluteError(_ a: RGBImage, _ b: RGBImage) -> Double {
        zip(a.pixels, b.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.pixels.count)
    }
}
