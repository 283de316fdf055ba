import TestSupport
import XCTest

@testable import Imaging
@testable import MediaIO

final class OrientationTests: XCTestCase {
    /// Where each stored quadrant (R G / B W) shows after turning, per the EXIF definitions.
    static let expectedQuadrants: [ImageOrientation: String] = [
        .upright: "RGBW", .mirrored: "GRWB", .rotated180: "WBGR", .flipped: "BWRG",
        .transposed: "RBGW", .rotated90: "BRWG", .transversed: "WGBR", .rotated270: "GWRB",
    ]

    func testEachOrientationMovesQuadrantsAsEXIFDefines() {
        let stored = MediaFixtures.quadrants(width: 40, height: 20)
        for orientation in ImageOrientation.allCases {
            let upright = orientation.apply(to: stored)
            XCTAssertEqual(upright.width, orientation.swapsSides ? 20 : 40)
            XCTAssertEqual(MediaFixtures.quadrantLetters(upright), Self.expectedQuadrants[orientation], "\(orientation)")
        }
    }

    /// Every pixel lands where the EXIF coordinate formulas put it.
    func testExactPixelMappingOnAnOddSizedPicture() {
        let w = 5, h = 3
        var stored = RGBImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                stored.pixels[(y * w + x) * 3] = UInt8(y * 10 + x); stored.pixels[(y * w + x) * 3 + 1] = UInt8(x);
                stored.pixels[(y * w + x) * 3 + 2] = UInt8(y)
            }
        }
        let source: [ImageOrientation: (Int, Int) -> (Int, Int)] = [
            .upright: { ($0, $1) }, .mirrored: { (w - 1 - $0, $1) }, .rotated180: { (w - 1 - $0, h - 1 - $1) },
            .flipped: { ($0, h - 1 - $1) }, .transposed: { ($1, $0) }, .rotated90: { ($1, h - 1 - $0) },
            .transversed: { (w - 1 - $1, h - 1 - $0) }, .rotated270: { (w - 1 - $1, $0) },
        ]
        for orientation in ImageOrientation.allCases {
            let upright = orientation.apply(to: stored)
            for dy in 0..<upright.height {
                for dx in 0..<upright.width {
                    let (sx, sy) = source[orientation]!(dx, dy)
                    XCTAssertTrue(upright.pixel(dx, dy) == stored.pixel(sx, sy), "\(orientation) at \(dx),\(dy)")
                }
            }
        }
    }

    /// The display matrices FFmpeg 5.1's mjpeg decoder attaches for EXIF 2...8 (seen with
    /// ffprobe -show_frames), and a phone's portrait-video matrix, read back to the same values.
    func testDisplayMatricesAsFFmpegWritesThem() {
        let one: Int32 = 65536
        let cases: [(ImageOrientation, [Int32])] = [
            (.upright, [one, 0, 0, 0, one, 0]), (.mirrored, [-one, 0, 0, 0, one, 0]),
            (.rotated180, [-one, 0, 0, 0, -one, 0]), (.flipped, [one, 0, 0, 0, -one, 0]),
            (.transposed, [0, one, 0, one, 0, 0]), (.rotated90, [0, one, 0, -one, 0, 0]),
            (.transversed, [0, -one, 0, -one, 0, 0]), (.rotated270, [0, -one, 0, one, 0, 0]),
        ]
        for (expected, top) in cases {
            let matrix = top + [0, 0, 1 << 30]
            XCTAssertEqual(matrix.withUnsafeBufferPointer { ImageOrientation(displayMatrix: $0.baseAddress!) }, expected)
        }
        let degenerate = [Int32](repeating: 0, count: 9)
        XCTAssertEqual(degenerate.withUnsafeBufferPointer { ImageOrientation(displayMatrix: $0.baseAddress!) }, .upright)
    }

    func testSixteenBitPlanesTurnLikeEightBit() {
        let stored = MediaFixtures.noisy(width: 7, height: 4)
        let wide = RGB16Image(
            width: 7, height: 4,
            red: stride(from: 0, to: 84, by: 3).map { UInt16(stored.pixels[$0]) * 257 },
            green: stride(from: 1, to: 84, by: 3).map { UInt16(stored.pixels[$0]) * 257 },
            blue: stride(from: 2, to: 84, by: 3).map { UInt16(stored.pixels[$0]) * 257 })
        for orientation in ImageOrientation.allCases {
            XCTAssertEqual(orientation.apply(to: wide).to8Bit(), orientation.apply(to: stored), "\(orientation)")
        }
    }
}
