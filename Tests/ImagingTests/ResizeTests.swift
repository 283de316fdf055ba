import Foundation
import XCTest

@testable import Imaging

final class ResizeTests: XCTestCase {
    func testShrinkingAveragesAndEnlargingKeepsFlatAreasAndEdgesSharp() {
        // A 2x2 checker of 0 and 200 averages to 100 when shrunk to one pixel.
        let checker = RGBImage(width: 2, height: 2, pixels: [0, 0, 0, 200, 200, 200, 200, 200, 200, 0, 0, 0])
        XCTAssertEqual(Resize.resize(checker, width: 1, height: 1).pixels, [100, 100, 100])
        // Flat colour stays exactly flat when enlarged (the bicubic weights sum to one).
        let flat = RGBImage(width: 7, height: 5, fill: (10, 120, 250))
        XCTAssertTrue(Resize.resize(flat, width: 31, height: 17).pixels.enumerated().allSatisfy { [10, 120, 250][$0.offset % 3] == $0.element })
        // A step edge enlarged 4x stays within the original range (clamped overshoot) and is
        // steeper than bilinear would make it.
        var step = RGBImage(width: 8, height: 1, fill: (0, 0, 0))
        for x in 4..<8 { step.set(x, 0, RGB(255, 255, 255)) }
        let big = Resize.resize(step, width: 32, height: 1).pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        XCTAssertEqual(big.first, 0)
        XCTAssertEqual(big.last, 255)
        // Output pixel 14 samples 1/8 of a pixel past the edge: bilinear gives 32, bicubic less;
        // the overshoot one pixel further out is clamped, not wrapped.
        XCTAssertLessThan(big[14], 32)
        XCTAssertGreaterThan(big[17], 255 - 32)
        XCTAssertEqual(big[13], 0)
        XCTAssertEqual(big[18], 255)
    }

    /// A region is resampled as the picture is: the whole picture as a region is `resize` to the
    /// bit, and a region half a pixel further right shows the picture half a pixel further left.
    func testARegionIsTheSameResamplingAtAFractionalPlace() {
        var ramp = RGBImage(width: 64, height: 48, fill: (0, 0, 0))
        for y in 0..<48 { for x in 0..<64 { ramp.set(x, y, RGB(UInt8(x * 4), UInt8(y * 5), 90)) } }
        let whole = Box(x: 0, y: 0, width: 64, height: 48)
        for (w, h) in [(32, 24), (100, 75), (64, 48)] {
            XCTAssertEqual(Resize.region(ramp, whole, width: w, height: h).pixels, Resize.resize(ramp, width: w, height: h).pixels, "\(w)x\(h)")
        }
        // Enlarged 2x from x 10.5: output pixel 2k reads source 10.5 + k - 0.25, where the ramp is 4 a pixel.
        let moved = Resize.region(ramp, Box(x: 10.5, y: 8, width: 20, height: 16), width: 40, height: 32)
        for k in 2..<18 { XCTAssertEqual(Double(moved.pixel(2 * k, 10).r), (10.25 + Double(k)) * 4, accuracy: 1, "pixel \(2 * k)") }
    }
}
