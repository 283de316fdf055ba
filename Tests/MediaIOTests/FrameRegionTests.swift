import Foundation
import TestSupport
import XCTest

@testable import Imaging
@testable import MediaIO

/// The film's clips convert only the crop they show. That must be the same picture as the
/// whole frame turned upright, cropped and scaled: for every turn a phone stores, and for
/// non-square pixels.
final class FrameRegionTests: XCTestCase {
    private func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        XCTAssertEqual([a.width, a.height], [b.width, b.height])
        return zip(a.pixels, b.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(1, a.pixels.count))
    }

    func testTheCropAloneEqualsTheWholeFrameCropped() throws {
        let clips = [
            "media/h264_portrait.mp4", "hostile/rotated_180.mp4", "hostile/rotated_270.mp4", "media/anamorphic.mp4", "analysis/two_people.mp4",
        ]
        for clip in clips {
            let reader = try VideoReader(path: Fixtures.url(clip).path)
            let info = reader.info
            let (W, H) = (Float(info.displayWidth), Float(info.displayHeight))
            // Off-centre, odd-sized crops of a portrait film's shape.
            for crop in [Box(x: W * 0.1 + 1, y: H * 0.05 + 1, width: W * 0.37, height: H * 0.83), Box(x: 0, y: 0, width: W, height: H)] {
                let whole = try reader.frames(from: 0.2, to: 0.25, depth: .eightBit).collect()[0].picture.rgb8
                let x = Int(crop.x.rounded()), y = Int(crop.y.rounded())
                let w = min(Int(crop.width.rounded()), whole.width - x), h = min(Int(crop.height.rounded()), whole.height - y)
                let expected = Resize.resize(Crop.crop(whole, x: x, y: y, width: w, height: h), width: 90, height: 160)
                let region = FrameRegion(crop: crop, width: 90, height: 160)
                let got = try VideoReader(path: Fixtures.url(clip).path).frames(from: 0.2, to: 0.25, depth: .eightBit, region: region).collect()[0]
                    .picture.rgb8
                let difference = meanDifference(got, expected)
                // Non-square pixels are cut at whole stored pixels: up to a shown pixel off.
                XCTAssertLessThan(difference, clip.contains("anamorphic") ? 6 : 4, "\(clip) crop \(crop): mean difference \(difference)")
            }
        }
    }
}
