import Foundation
import SFaceWeights
import XCTest
import TestSupport
@testable import Faces
@testable import GlimtCore
@testable import GlimtPure
@testable import Imaging
@testable import Library
@testable import MediaIO

/// A bounded random-mutation loop over what glimt parses itself: the weight-file format, a
/// hand-edited reference list, a saved picks file and HEIF photos. Each mutant (bits flipped,
/// bytes set to edge values, slices cut, repeated or inserted) must either parse or fail with a
/// one-line `GlimtError`; a trap fails the whole run. Seeded, so a failure reproduces.
final class MutationFuzzTests: XCTestCase {
    private struct Mutator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }

        /// One to four edits inside `range` of `bytes`.
        mutating func mutate(_ bytes: [UInt8], within range: Range<Int>) -> [UInt8] {
            var b = bytes
            for _ in 0...next(4) {
                let lo = range.lowerBound, hi = min(range.upperBound, b.count)
                guard hi > lo else { break }
                let at = lo + next(hi - lo)
                switch next(6) {
                case 0: b[at] ^= UInt8(1 << next(8))
                case 1: b[at] = [0, 0xff, 0x7f, 0x80, 0x30, 0x22][next(6)]
                case 2: b.removeSubrange(at..<min(hi, at + 1 + next(16)))
                case 3: b.insert(contentsOf: b[at..<min(hi, at + 1 + next(8))], at: at)
                case 4: b.insert(UInt8(next(256)), at: at)
                default: b.removeSubrange(at..<hi)   // cut short
                }
            }
            return b
        }
    }

    private func assertOneLine(_ error: Error, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let e = error as? GlimtError else { return XCTFail("\(what): not a GlimtError: \(error)", file: file, line: line) }
        XCTAssertFalse(e.description.contains("\n"), "\(what): \(e.description)", file: file, line: line)
    }

    /// YuNet's weight file, its CRC fixed after each mutation so the parser itself is reached.
    func testWeightFilesSurviveMutations() throws {
        let original = [UInt8](try Data(contentsOf: BakedWeights.locate("yunet").get()))
        var m = Mutator(state: 1)
        var parsed = 0
        for i in 0..<1500 {
            var mutant = m.mutate(original, within: 8..<(original.count - 4))
            guard mutant.count >= 4 else { continue }
            let crc = mutant.prefix(mutant.count - 4).withUnsafeBytes { CRC32.checksum($0) }
            withUnsafeBytes(of: crc.littleEndian) { mutant.replaceSubrange((mutant.count - 4)..., with: $0) }
            do {
                _ = try YuNet(weights: WeightFile(data: Data(mutant)))
                parsed += 1
            } catch {
                assertOneLine(error, "weight mutant \(i)")
            }
        }
        XCTAssertLessThan(parsed, 1500, "some mutants must be refused")
    }

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

    func testReferenceListsSurviveMutations() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: library) }
        let store = ReferenceStore(library: library)
        let embedding = try Embedding(validating: (0..<Embedding.count).map { Float($0 % 7) - 3 })
        let reference = Reference(id: 0, photo: "/photos/a.jpg", face: 1, box: Box(x: 1, y: 2, width: 30, height: 40),
                                  landmarks: (0..<5).map { Point(Float($0), 2) }, quality: 0.8, embedding: embedding,
                                  thumbnail: "", added: "2024-05-01T10:00:00Z")
        _ = try store.add(reference, to: "Emma", thumbnailPNG: [], check: { _, _ in })
        let original = [UInt8](try Data(contentsOf: store.indexURL))
        var m = Mutator(state: 2)
        for i in 0..<1500 {
            try Data(m.mutate(original, within: 0..<original.count)).write(to: store.indexURL)
            do { _ = try store.list() } catch { assertOneLine(error, "reference-list mutant \(i)") }
        }
    }

    func testPicksFilesSurviveMutations() throws {
        let box = #"{"x": 10, "y": 0, "width": 150, "height": 270}"#
        let pick = #"{"day": "2024-05-04", "video": "/v/a.mp4", "start": 1.5, "length": 1, "score": 0.9, "parts": {"aesthetics": 1, "sharpness": 1, "face": 1}, "crop": \#(box), "zoom": 1, "dateSource": "file name", "candidates": 1}"#
        let original = Array(#"{"picks": [\#(pick), \#(pick.replacingOccurrences(of: "05-04", with: "05-05"))]}"#.utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-fuzz-picks-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(original).write(to: file)
        XCTAssertEqual(try FilmPlan.loadPicks(file.path).picks.count, 2, "the template itself is a valid picks file")
        var m = Mutator(state: 3)
        for i in 0..<1500 {
            try Data(m.mutate(original, within: 0..<original.count)).write(to: file)
            do {
                let loaded = try FilmPlan.loadPicks(file.path)
                for p in loaded.problems { XCTAssertFalse(p.reason.contains("\n"), "picks mutant \(i): \(p.reason)") }
            } catch {
                assertOneLine(error, "picks mutant \(i)")
            }
        }
    }

    /// The review page's choices file, read as `pick --apply` reads it (encodings, duplicate keys,
    /// then the decoder), and the settings file: each mutant is read or refused in one line.
    func testChoicesFilesAndSettingsSurviveMutations() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-fuzz-choices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("glimt-choices.json").path
        let choices = Array(#"{"glimt": "choices", "version": 1, "person": "Emma", "choices": [{"day": "2024-05-01", "action": "pick", "video": "/v/a.mp4", "at": 1.5}, {"day": "2024-05-02", "action": "exclude"}]}"#.utf8)
        let encodings: [[UInt8]] = [choices, [0xEF, 0xBB, 0xBF] + choices, Array(String(decoding: choices, as: UTF8.self).data(using: .utf16)!)]
        var m = Mutator(state: 5)
        var read = 0
        for (e, original) in encodings.enumerated() {
            for i in 0..<1000 {
                try Data(m.mutate(original, within: 0..<original.count)).write(to: URL(fileURLWithPath: file))
                do {
                    _ = try JSONFile.read(ChoicesFile.File.self, from: file, what: "a choices file")
                    read += 1
                } catch { assertOneLine(error, "choices mutant \(e).\(i)") }
            }
        }
        XCTAssertGreaterThan(read, 0, "some mutants are still choices files")
        let config = folder.appendingPathComponent("config").path
        let settings = Array("# mine\r\nfolder /home/me/Videos\r\nfolder ~/Phone videos\n\nfolder /mnt/nas\n".utf8)
        for i in 0..<1500 {
            try Data(m.mutate(settings, within: 0..<settings.count)).write(to: URL(fileURLWithPath: config))
            do { _ = try ConfigFile.load(config, environment: ["HOME": "/home/me"]) } catch { assertOneLine(error, "settings mutant \(i)") }
        }
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
                    assertOneLine(error, "\(name) mutant \(i)")
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
