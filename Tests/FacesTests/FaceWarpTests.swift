import Foundation
import XCTest

@testable import Faces
@testable import Imaging

/// The alignment warp (eight pixels as vectors where all their taps are inside the picture, one by
/// one with a check per tap elsewhere) against the plain bilinear sample with a check per tap:
/// equal byte for byte, for crops inside, across the edges of and outside the picture.
final class FaceWarpTests: XCTestCase {
    private func plainWarp(_ image: RGBImage, transform: FaceAlignment.Similarity, width: Int, height: Int) -> RGBImage {
        let inv = transform.inverse
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let W = image.width, H = image.height
        for v in 0..<height {
            for u in 0..<width {
                let x = inv.a.re * Double(u) - inv.a.im * Double(v) + inv.b.re
                let y = inv.a.im * Double(u) + inv.a.re * Double(v) + inv.b.im
                let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
                let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
                var acc: (Float, Float, Float) = (0, 0, 0)
                func tap(_ sx: Int, _ sy: Int, _ wt: Float) {
                    guard sx >= 0, sy >= 0, sx < W, sy < H else { return }
                    let p = (sy * W + sx) * 3
                    acc.0 += Float(image.pixels[p]) * wt
                    acc.1 += Float(image.pixels[p + 1]) * wt
                    acc.2 += Float(image.pixels[p + 2]) * wt
                }
                tap(x0, y0, (1 - fx) * (1 - fy))
                tap(x0 + 1, y0, fx * (1 - fy))
                tap(x0, y0 + 1, (1 - fx) * fy)
                tap(x0 + 1, y0 + 1, fx * fy)
                let o = (v * width + u) * 3
                out[o] = UInt8(min(255, acc.0 + 0.5)); out[o + 1] = UInt8(min(255, acc.1 + 0.5)); out[o + 2] = UInt8(min(255, acc.2 + 0.5))
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    func testWarpEqualsThePlainBilinearSample() {
        var seed: UInt64 = 7
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let image = RGBImage(width: 97, height: 61, pixels: (0..<(97 * 61 * 3)).map { _ in UInt8(next() * 256) })
        for i in 0..<40 {
            // Scales around a face's, any rotation, offsets that put the crop inside, across an
            // edge of, or wholly outside the picture.
            let scale = 0.3 + 2 * next(), angle = 2 * Double.pi * next()
            let t = FaceAlignment.Similarity(a: (scale * cos(angle), scale * sin(angle)), b: (200 * next() - 120, 160 * next() - 100))
            let got = FaceAlignment.warp(image, transform: t, width: 112, height: 112)
            XCTAssertEqual(got.pixels, plainWarp(image, transform: t, width: 112, height: 112).pixels, "transform \(i): \(t)")
        }
    }
}
