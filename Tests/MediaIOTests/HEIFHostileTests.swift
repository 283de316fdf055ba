import Foundation
import TestSupport
import XCTest

@testable import GlimtCore
@testable import Imaging
@testable import MediaIO

/// Hostile HEIF files: each ends in one exact one-line error naming the file, quickly, without
/// reading or allocating more than the file justifies.
final class HEIFHostileTests: XCTestCase {
    private func assertRefused(_ path: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        let error = MediaFixtures.glimtError({ _ = try ImageDecoder.decode(path: path) }, file: file, line: line)
        XCTAssertEqual(error?.path, path, file: file, line: line)
        XCTAssertEqual(error?.reason, reason, file: file, line: line)
    }

    private var folder = ""
    override func setUp() { folder = temporaryFolder(self).path }

    func testTruncatedFiles() {
        let original = MediaFixtures.bytes(HEIFFixtures.path("grid_irot.heic"))
        let cuts: [(Int, String)] = [
            (20, "truncated or corrupt HEIF: the 'ftyp' box says 28 bytes but only 20 are left"),
            (28, "truncated or corrupt HEIF: there is no 'meta' box"),
            (200, "truncated or corrupt HEIF: the 'meta' box says 1289 bytes but only 172 are left"),
            (1317, "truncated or corrupt HEIF: item 2's data starts at byte 1325, past the end of its 1317 bytes"),
            (1330, "truncated or corrupt HEIF: the 'mdat' box says 32219 bytes but only 13 are left"),
            (original.count / 2, "truncated or corrupt HEIF: the 'mdat' box says 32219 bytes but only 15451 are left"),
            (original.count - 1, "truncated or corrupt HEIF: the 'mdat' box says 32219 bytes but only 32218 are left"),
        ]
        for (i, (cut, reason)) in cuts.enumerated() {
            assertRefused(MediaFixtures.write(Array(original.prefix(cut)), folder, "cut\(i).heic"), reason)
        }
        // An mdat that runs "to the end" (size 0) and is then cut: the tiles' data is missing.
        var open = original
        let mdat = 28 + 1289
        open.replaceSubrange(mdat..<(mdat + 4), with: [0, 0, 0, 0])
        XCTAssertNoThrow(try ImageDecoder.decode(path: MediaFixtures.write(open, folder, "open.heic")), "size 0: to the end of the file")
        assertRefused(
            MediaFixtures.write(Array(open.prefix(open.count - 5000)), folder, "opencut.heic"),
            "truncated or corrupt HEIF: item 12's data (2109 bytes from byte 26446) runs past the end of its 28536 bytes")
    }

    func testOffsetsPastTheEnd() throws {
        var file = HEIFFixtures.single(try HEIFFixtures.plainPicture())
        file.offsetShift = 1_000_000
        assertRefused(
            file.write(folder, "past.heic"), "truncated or corrupt HEIF: item 1's data starts at byte 1000352, past the end of its 24480 bytes")
        file.offsetShift = 10
        assertRefused(
            file.write(folder, "overlap.heic"),
            "truncated or corrupt HEIF: item 1's data (24128 bytes from byte 362) runs past the end of its 24480 bytes")
    }

    func testGridSizes() throws {
        let tiles = try HEIFFixtures.gridTiles()
        assertRefused(
            HEIFFixtures.grid(tiles, width: 0, height: 0).write(folder, "zero.heic"),
            "truncated or corrupt HEIF: the grid picture is 0x0 pixels")
        assertRefused(
            HEIFFixtures.grid(tiles, wide: true, width: 100_000, height: 100_000).write(folder, "huge.heic"),
            "picture too large: 100000x100000 is 10000 MP, the limit is 100 MP")
        assertRefused(
            HEIFFixtures.grid(tiles, wide: true, width: 0xffff_ffff, height: 0xffff_ffff).write(folder, "huger.heic"),
            "picture too large: 4294967295x4294967295, the limit is 100 MP")
        assertRefused(
            HEIFFixtures.grid(tiles, width: 1000, height: 176).write(folder, "wider.heic"),
            "truncated or corrupt HEIF: 4x3 tiles of 64x64 do not fit the grid's 1000x176 picture")
        assertRefused(
            HEIFFixtures.grid(tiles, width: 100, height: 100).write(folder, "overshoot.heic"),
            "truncated or corrupt HEIF: 4x3 tiles of 64x64 do not fit the grid's 100x100 picture")
        var short = HEIFFixtures.grid(tiles)
        short.references = [("dimg", 1, Array(2...12))]
        assertRefused(short.write(folder, "short.heic"), "truncated or corrupt HEIF: the grid of 4x3 tiles names 11 tiles")
    }

    func testReferenceLoops() throws {
        let tiles = try HEIFFixtures.gridTiles()
        // A grid whose only tile is itself.
        var selfGrid = HEIFFixtures.grid(tiles)
        selfGrid.items[0].data = HEIFTestFile.grid(rows: 1, columns: 1, width: 64, height: 64, wide: false)
        selfGrid.references = [("dimg", 1, [1])]
        assertRefused(selfGrid.write(folder, "self.heic"), "truncated or corrupt HEIF: item references loop back to item 1")
        // Two identity items deriving from each other.
        var cycle = HEIFFixtures.grid(tiles)
        cycle.items[0].type = "iden"
        cycle.items[1].type = "iden"
        cycle.references = [("dimg", 1, [2]), ("dimg", 2, [1])]
        assertRefused(cycle.write(folder, "cycle.heic"), "truncated or corrupt HEIF: item references loop back to item 1")
        // A grid whose tile derives from the grid.
        var back = HEIFFixtures.grid(tiles)
        back.items[2].type = "iden"
        back.references += [("dimg", 3, [1])]
        assertRefused(back.write(folder, "back.heic"), "the grid's tile 2 (item 3) is of type 'iden', not a coded picture")
        // A chain of identities deeper than anyone writes.
        var chain = HEIFFixtures.grid(tiles)
        for i in 0..<12 { chain.items[i].type = "iden" }
        chain.references = (1...12).map { ("dimg", $0, [$0 + 1]) }
        assertRefused(chain.write(folder, "chain.heic"), "derived pictures are nested more than 8 deep")
        // An identity of a coded picture is that picture, with its own transformations on top.
        var iden = HEIFFixtures.grid(tiles)
        iden.items[0].type = "iden"
        iden.properties.append(HEIFTestFile.irot(1))
        iden.items[0].properties = [5]
        iden.references = [("dimg", 1, [2])]
        let turned = try ImageDecoder.decode(path: iden.write(folder, "iden.heic"))
        var tile = iden
        tile.primary = 2
        XCTAssertEqual(turned, ImageOrientation.rotated270.apply(to: try ImageDecoder.decode(path: tile.write(folder, "tile.heic"))))
    }

    func testMissingAndMisplacedProperties() throws {
        let coded = try HEIFFixtures.plainPicture()
        var noConfiguration = HEIFFixtures.single(coded)
        noConfiguration.items[0].properties = [2, 3]
        assertRefused(noConfiguration.write(folder, "nohvcc.heic"), "truncated or corrupt HEIF: item 1 has no 'hvcC' decoder configuration")
        var pastIpco = HEIFFixtures.single(coded)
        pastIpco.items[0].properties = [0x81, 2, 9]
        assertRefused(pastIpco.write(folder, "pastipco.heic"), "truncated or corrupt HEIF: item 1 is given property 9, but 'ipco' has 3")
        var widePastIpco = HEIFFixtures.single(coded, wide: true)
        widePastIpco.items[0].properties = [0x8001, 2, 0x7fff]
        assertRefused(widePastIpco.write(folder, "widepastipco.heic"), "truncated or corrupt HEIF: item 1 is given property 32767, but 'ipco' has 3")
        var essential = HEIFFixtures.single(coded)
        essential.properties.append(HEIFTestFile.box("lsel", [0, 1]))
        essential.items[0].properties.append(0x84)
        assertRefused(essential.write(folder, "essential.heic"), "item 1 has the essential property 'lsel', which glimt cannot apply")
        essential.items[0].properties[3] = 4  // the same property, not essential: ignored
        XCTAssertNoThrow(try ImageDecoder.decode(path: essential.write(folder, "optional.heic")))
        var broken = HEIFFixtures.single(coded)
        broken.properties[0] = HEIFTestFile.box("hvcC", Array(coded.configuration.prefix(30)))
        assertRefused(
            broken.write(folder, "brokenhvcc.heic"),
            "truncated or corrupt HEIF: the HEVC decoder refuses the 'hvcC' configuration: Invalid NAL unit size in extradata.")
        var emptyConfiguration = HEIFFixtures.single(coded)
        emptyConfiguration.properties[0] = HEIFTestFile.box("hvcC", [])
        assertRefused(emptyConfiguration.write(folder, "emptyhvcc.heic"), "truncated or corrupt HEIF: the 'hvcC' box has only 0 bytes")
        var badClap = HEIFFixtures.single(coded)
        badClap.properties.append(HEIFTestFile.box("clap", [500, 1, 100, 1, 0, 1, 0, 1].flatMap(HEIFTestFile.u32)))
        badClap.items[0].properties.append(4)
        assertRefused(badClap.write(folder, "badclap.heic"), "truncated or corrupt HEIF: the 'clap' crop of item 1 is not inside its 216x176 picture")
        var zeroClap = badClap
        zeroClap.properties[3] = HEIFTestFile.box("clap", [100, 0, 100, 1, 0, 1, 0, 1].flatMap(HEIFTestFile.u32))
        assertRefused(
            zeroClap.write(folder, "zeroclap.heic"), "truncated or corrupt HEIF: the 'clap' crop of item 1 is not inside its 216x176 picture")
        // An AV1 item given the HEVC configuration only.
        var av1 = HEIFFixtures.single(coded)
        av1.items[0].type = "av01"
        av1.brands = ["avif", "mif1"]
        assertRefused(av1.write(folder, "photo.avif"), "truncated or corrupt HEIF: item 1 has no 'av1C' decoder configuration")
        var unknown = HEIFFixtures.single(coded)
        unknown.items[0].type = "j2k1"
        assertRefused(unknown.write(folder, "j2k.heif"), "the picture (item 1) is of type 'j2k1', which glimt cannot decode")
        var noPrimary = HEIFFixtures.single(coded)
        noPrimary.primary = 7
        assertRefused(noPrimary.write(folder, "noprimary.heic"), "truncated or corrupt HEIF: the primary item 7 is not among the items in 'iinf'")
        var garbage = HEIFFixtures.single(coded)
        garbage.items[0].data = [0, 0, 0, 4, 1, 2, 3, 4]
        assertRefused(garbage.write(folder, "garbage.heic"), "truncated or corrupt HEIF: item 1 cannot be decoded: no picture in its data")
    }

    func testImpossibleBoxSizes() throws {
        let coded = try HEIFFixtures.plainPicture()
        let good = HEIFFixtures.single(coded).bytes
        // The meta box claiming almost 4 GB.
        var huge = good
        huge.replaceSubrange(24..<28, with: [0xff, 0xff, 0xff, 0xf0])
        assertRefused(
            MediaFixtures.write(huge, folder, "huge.heic"), "truncated or corrupt HEIF: the 'meta' box says 4294967280 bytes but only 24456 are left")
        // A 64-bit size of 2^62 at the top level, after everything else.
        let large = good + HEIFTestFile.u32(1) + Array("free".utf8) + HEIFTestFile.u64(1 << 62)
        assertRefused(
            MediaFixtures.write(large, folder, "large.heic"),
            "truncated or corrupt HEIF: the 'free' box says 4611686018427387904 bytes but only 16 are left")
        var inner = HEIFFixtures.single(coded)
        inner.extraMetaBoxes = [HEIFTestFile.u32(0x7fff_ffff) + Array("free".utf8)]
        assertRefused(inner.write(folder, "inner.heic"), "truncated or corrupt HEIF: the 'free' box says 2147483647 bytes but only 8 are left")
        var tiny = HEIFFixtures.single(coded)
        tiny.extraMetaBoxes = [HEIFTestFile.u32(4) + Array("free".utf8)]
        assertRefused(tiny.write(folder, "tiny.heic"), "truncated or corrupt HEIF: the 'free' box has an impossible size of 4 bytes")
        // Size 0 means "to the end of the parent": first in meta it swallows every other box.
        var swallow = HEIFFixtures.single(coded)
        swallow.leadingMetaBoxes = [HEIFTestFile.u32(0) + Array("free".utf8)]
        assertRefused(swallow.write(folder, "swallow.heic"), "truncated or corrupt HEIF: the 'meta' box has no 'hdlr' box")
        var last = HEIFFixtures.single(coded)
        last.extraMetaBoxes = [HEIFTestFile.u32(0) + Array("free".utf8)]
        XCTAssertNoThrow(try ImageDecoder.decode(path: last.write(folder, "last.heic")), "last in meta, size 0 is harmless")
        // A meta box larger than glimt reads (a sparse file: nothing is written but the headers).
        let path = folder + "/bigmeta.heic"
        let head = Array(good.prefix(24)) + HEIFTestFile.u32(17 << 20) + Array("meta".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(head)))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(24 + (17 << 20)))
        try handle.close()
        assertRefused(path, "the 'meta' box has 17825784 bytes, more than the 16 MB glimt reads")
    }

    func testNestingBombIsNeverDescended() throws {
        let coded = try HEIFFixtures.plainPicture()
        // 50,000 boxes each inside the previous one, as a property and inside meta: glimt reads
        // only the boxes it knows at the depth it knows, so the depth costs nothing.
        let depth = 50_000
        let bomb = (0..<depth).flatMap { HEIFTestFile.u32(8 * (depth - $0)) + Array("dinf".utf8) }
        var file = HEIFFixtures.single(coded)
        file.properties.append(bomb)
        file.extraMetaBoxes = [bomb]
        let start = Date()
        XCTAssertEqual(try ImageDecoder.decode(path: file.write(folder, "bomb.heic")).width, 216)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        // The same depth in place of 'ipco'.
        var noIpco = HEIFFixtures.single(coded)
        noIpco.extraMetaBoxes = []
        var bytes = noIpco.bytes
        let ipco = try XCTUnwrap(findBox("ipco", in: bytes))
        bytes.replaceSubrange(ipco + 4..<ipco + 8, with: Array("dinf".utf8))
        assertRefused(MediaFixtures.write(bytes, folder, "noipco.heic"), "truncated or corrupt HEIF: the 'iprp' box has no 'ipco' box")
    }

    func testRefusalsTakeLittleTime() throws {
        // Every case above together, bounded: a hostile file costs milliseconds, not seconds.
        let start = Date()
        try testReferenceLoops()
        try testGridSizes()
        try testMissingAndMisplacedProperties()
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    private func findBox(_ type: String, in bytes: [UInt8]) -> Int? {
        let tag = Array(type.utf8)
        for i in 4..<(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == tag { return i - 4 }
        return nil
    }
}
