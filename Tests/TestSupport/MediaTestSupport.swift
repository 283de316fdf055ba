import Foundation
import GlimtCore
import Imaging
import XCTest

/// Files and pictures the Media tests share.
public enum MediaFixtures {
    /// Four flat quadrants (red, green / blue, white) so orientation errors are unmistakable,
    /// plus a smooth gradient band across the middle rows.
    public static func quadrants(width: Int = 64, height: Int = 48) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let left = x < width / 2, top = y < height / 2
                let colour: (UInt8, UInt8, UInt8) = top ? (left ? (255, 0, 0) : (0, 255, 0)) : (left ? (0, 0, 255) : (255, 255, 255))
                let i = (y * width + x) * 3
                image.pixels[i] = colour.0
                image.pixels[i + 1] = colour.1
                image.pixels[i + 2] = colour.2
            }
        }
        return image
    }

    /// Deterministic noise over gradients: a hard case for lossless round trips.
    public static func noisy(width: Int, height: Int, seed: UInt64 = 1) -> RGBImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = UInt8(truncatingIfNeeded: state >> 59)
                let i = (y * width + x) * 3
                pixels[i] = UInt8(truncatingIfNeeded: x * 255 / max(width - 1, 1)) &+ noise
                pixels[i + 1] = UInt8(truncatingIfNeeded: y * 255 / max(height - 1, 1))
                pixels[i + 2] = UInt8(truncatingIfNeeded: state >> 40)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Gentle gradients with a little noise, like a photo's smooth areas.
    public static func smooth(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(40 + x * 170 / width + (x * 7 + y * 3) % 5)
                pixels[i + 1] = UInt8(30 + y * 180 / height)
                pixels[i + 2] = UInt8(200 - (x + y) * 150 / (width + height))
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The average colour of a rectangle.
    public static func mean(_ image: RGBImage, x: Range<Int>, y: Range<Int>) -> (r: Double, g: Double, b: Double) {
        var sum = (0.0, 0.0, 0.0)
        for yy in y { for xx in x { let p = image.pixel(xx, yy); sum.0 += Double(p.r); sum.1 += Double(p.g); sum.2 += Double(p.b) } }
        let n = Double(x.count * y.count)
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    /// Which quadrant colour dominates the centre of each quadrant of `image`, as letters
    /// R, G, B, W (top-left, top-right, bottom-left, bottom-right).
    public static func quadrantLetters(_ image: RGBImage) -> String {
        let w = image.width, h = image.height
        let centres = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
        return centres.map { (x, y) -> String in
            let c = mean(image, x: (x - 2)..<(x + 2), y: (y - 2)..<(y + 2))
            switch (c.r > 128, c.g > 128, c.b > 128) {
            case (true, false, false): return "R"
            case (false, true, false): return "G"
            case (false, false, true): return "B"
            case (true, true, true): return "W"
            default: return "?"
            }
        }.joined()
    }

    /// An EXIF APP1 segment holding one IFD0 entry, Orientation = `orientation`.
    public static func exifSegment(orientation: UInt16, littleEndian: Bool) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xff), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xff)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let be: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)]
            return littleEndian ? be.reversed() : be
        }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4d, 0x4d]
        tiff += u16(42) + u32(8)
        tiff += u16(1)  // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        return app1(payload: Array("Exif".utf8) + [0, 0] + tiff)
    }

    public static func app1(payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xff, 0xe1, UInt8(length >> 8), UInt8(length & 0xff)] + payload
    }

    /// `jpeg` with `segment` placed right after its start-of-image marker.
    public static func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    public static func write(_ bytes: [UInt8], _ folder: String, _ name: String) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    public static func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path)!) }

    /// The error `body` throws, failing the test if it is not a one-line `GlimtError`.
    public static func glimtError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> GlimtError? {
        do {
            try body()
            XCTFail("expected a GlimtError", file: file, line: line)
            return nil
        } catch let error as GlimtError {
            XCTAssertFalse(error.description.contains("\n"), "error is not one line: \(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected a GlimtError, got \(error)", file: file, line: line)
            return nil
        }
    }
}

/// CRC-32 as PNG chunks use it.
public func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
}
