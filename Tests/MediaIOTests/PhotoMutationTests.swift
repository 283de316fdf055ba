import Foundation
import TestSupport
import XCTest

@testable import GlimtCore
@testable import MediaIO

/// A bounded random-mutation loop over what glimt parses itself (see TestSupport's `Mutator`):
/// each mutant must either parse or fail with a one-line error; a trap fails the whole run.
final class PhotoMutationTests: XCTestCase {
    /// Our JPEG decoder reads the photo's bytes itself (after FFmpeg has): a damaged
    /// file must give nil or a picture, never a trap.
    func testJPEGPlanesSurviveMutations() throws {
        var m = Mutator(state: 3)
        var decoded = 0, refused = 0
        for name in ["collins_420", "collins_420_restarts", "collins_420_progressive", "collins_444", "collins_411", "collins_grey"] {
            let original = [UInt8](try Data(contentsOf: Fixtures.url("photos/\(name).jpg")))
            for _ in 0..<1000 {
                if let jpeg = JPEGPlanes(bytes: m.mutate(original, within: 2..<original.count), maxPixels: 1 << 20) {
                    XCTAssertEqual(jpeg.components.count == 1 || jpeg.components.count == 3, true)
                    decoded += 1
                } else {
                    refused += 1
                }
            }
        }
        XCTAssertGreaterThan(refused, 0, "some mutants must be refused")
        print("JPEG mutants: \(decoded) decoded, \(refused) refused")
    }

    /// HEIF's container parser and the decoding behind it: mutants of the HEIC and AVIF fixtures
    /// and of the grid rebuilt with the wide fields libheif does not write (iloc version 2 with a
    /// base offset, 32-bit IDs, 15-bit property indices), three in four inside the boxes before the
    /// coded data (where the parser works), the rest anywhere. Read from memory: writing 6000
    /// files costs more than decoding them on a busy disk.
    func testHEIFFilesSurviveMutations() throws {
        let start = Date()
        var m = Mutator(state: 4)
        let wide = HEIFFixtures.grid(try HEIFFixtures.gridTiles(), wide: true).bytes
        for name in ["grid_irot.heic", "plain_clap_irot_imir.heic", "upright.avif", "wide grid"] {
            let original = name == "wide grid" ? wide : [UInt8](try Data(contentsOf: Fixtures.url("heif/\(name)")))
            let mdat = try XCTUnwrap((4..<original.count).first { original[$0..<($0 + 4)].elementsEqual("mdat".utf8) })
            var decoded = 0
            for i in 0..<1500 {
                let mutant = m.mutate(original, within: i % 4 == 3 ? 0..<original.count : 0..<mdat)
                do {
                    let picture = try HEIFImage.decode(bytes: mutant)
                    XCTAssertGreaterThan(picture.image.width * picture.image.height, 0)
                    decoded += 1
                } catch {
                    assertOneLineError(error, "\(name) mutant \(i)")
                }
            }
            print("\(name): 1500 mutants, \(decoded) decoded, \(1500 - decoded) refused with one line")
            XCTAssertGreaterThan(decoded, 0)
            XCTAssertLessThan(decoded, 1500)
        }
        let seconds = Date().timeIntervalSince(start)
        print("HEIF mutants took \(String(format: "%.2f", seconds)) s")
        XCTAssertLessThan(seconds, 60, "bounded: about 2 s on an idle machine")
    }
}
