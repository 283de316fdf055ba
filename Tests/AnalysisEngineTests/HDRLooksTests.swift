import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import Imaging
@testable import MediaIO

/// HDR clips are judged on the pictures the film will show (tone-mapped), not on their raw
/// codes: an HDR10 clip and the SDR clip it was made from (Fixtures/hdr, tools/fixtures/make_hdr_fixtures.sh)
/// get the same looks and sharpness, within 10 %.
final class HDRLooksTests: XCTestCase {
    private struct Judged {
        var looks = 0.0, sharpness = 0.0, exposure = 0.0, frames = 0
    }

    private func judge(_ name: String) throws -> Judged {
        let reader = try VideoReader(path: Fixtures.url("hdr/\(name)").path)
        var judged = Judged()
        for sample in try reader.frames(every: 0.25, longSide: 320).collect() {
            let sharpness = Sharpness.score(sample.image)
            let looks = Aesthetics.measure(sample.image, sharpness: sharpness)
            judged.looks += Double(looks.value)
            judged.exposure += Double(looks.exposure)
            judged.sharpness += sharpness
            judged.frames += 1
        }
        let n = Double(max(judged.frames, 1))
        judged.looks /= n
        judged.exposure /= n
        judged.sharpness /= n
        return judged
    }

    func testPQClipIsJudgedAsItsSDRSource() throws {
        let sdr = try judge("sdr_bt709.mp4"), pq = try judge("pq_bt2020.mp4")
        print(
            "SDR: looks \(sdr.looks), exposure \(sdr.exposure), sharpness \(sdr.sharpness); PQ: looks \(pq.looks), exposure \(pq.exposure), sharpness \(pq.sharpness) (\(pq.frames) frames)"
        )
        XCTAssertEqual(sdr.frames, 8)
        XCTAssertEqual(pq.frames, 8)
        XCTAssertEqual(pq.looks, sdr.looks, accuracy: 0.1 * sdr.looks, "looks")
        XCTAssertEqual(pq.sharpness, sdr.sharpness, accuracy: 0.1 * sdr.sharpness, "sharpness")
    }
}
