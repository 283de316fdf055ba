import Foundation
import TestSupport
import XCTest

@testable import MediaIO

/// HEIF files assembled by the tests, box by box, from the coded pictures of the committed
/// fixtures: valid variants (other box versions and field sizes than libheif writes) and hostile
/// ones (loops, impossible sizes, references past the end).
struct HEIFTestFile {
    struct Item {
        var id: Int
        var type: String
        /// Stored in `mdat` (construction method 0), or in `idat` (method 1).
        var data: [UInt8] = []
        var inItemData = false
        /// Indices into `properties`, 1-based; add 0x80 (0x8000 with wide indices) for essential.
        var properties: [Int] = []
    }

    var items: [Item] = []
    var properties: [[UInt8]] = []
    var references: [(type: String, from: Int, to: [Int])] = []
    var primary = 1
    var brands = ["heic", "mif1"]
    /// Version 2 `iloc` with 8-byte offsets and lengths and a 4-byte base offset, version 3
    /// `infe`, version 1 `pitm`/`ipma`/`iref` (32-bit item IDs) and 15-bit property indices.
    var wide = false
    /// More boxes at the start and the end of `meta` (for hostile layouts).
    var leadingMetaBoxes: [[UInt8]] = []
    var extraMetaBoxes: [[UInt8]] = []
    /// Added to every `mdat` offset in `iloc` (for data said to be past the end).
    var offsetShift = 0

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    static func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    static func u64(_ v: Int) -> [UInt8] { u32(v >> 32) + u32(v & 0xffff_ffff) }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(8 + payload.count) + Array(type.utf8) + payload }
    static func fullBox(_ type: String, version: Int, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [UInt8(version)] + Array(u32(flags).dropFirst()) + payload)
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", version: 0, u32(width) + u32(height)) }
    static func irot(_ turns: Int) -> [UInt8] { box("irot", [UInt8(turns)]) }
    static func imir(_ mode: Int) -> [UInt8] { box("imir", [UInt8(mode)]) }
    static func nclx(matrix: Int, fullRange: Bool) -> [UInt8] {
        box("colr", Array("nclx".utf8) + u16(1) + u16(13) + u16(matrix) + [fullRange ? 0x80 : 0])
    }
    /// A grid's item data: 16-bit or (wide) 32-bit output size.
    static func grid(rows: Int, columns: Int, width: Int, height: Int, wide: Bool) -> [UInt8] {
        [0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)] + (wide ? u32(width) + u32(height) : u16(width) + u16(height))
    }

    func itemID(_ id: Int) -> [UInt8] { wide ? Self.u32(id) : Self.u16(id) }

    func meta(mdatPayloadStart: Int) -> [UInt8] {
        var boxes: [[UInt8]] = leadingMetaBoxes
        boxes.append(Self.fullBox("hdlr", version: 0, Self.u32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0]))
        boxes.append(Self.fullBox("pitm", version: wide ? 1 : 0, itemID(primary)))
        let entries = items.map { item in
            Self.fullBox("infe", version: wide ? 3 : 2, itemID(item.id) + Self.u16(0) + Array(item.type.utf8) + [0])
        }
        boxes.append(Self.fullBox("iinf", version: wide ? 1 : 0, (wide ? Self.u32(entries.count) : Self.u16(entries.count)) + entries.flatMap { $0 }))
        var idat: [UInt8] = []
        var mdatOffset = mdatPayloadStart + offsetShift
        var iloc: [UInt8] = wide ? [0x88, 0x40] + Self.u32(items.count) : [0x44, 0x00] + Self.u16(items.count)
        let version = wide ? 2 : (items.contains { $0.inItemData } ? 1 : 0)
        if version == 1 { iloc = [0x44, 0x00] + Self.u16(items.count) }
        for item in items {
            iloc += itemID(item.id)
            if version >= 1 { iloc += Self.u16(item.inItemData ? 1 : 0) }
            iloc += Self.u16(0)  // data reference
            let offset: Int
            if item.inItemData { offset = idat.count; idat += item.data } else { offset = mdatOffset; mdatOffset += item.data.count }
            if wide {
                // base offset (4 bytes) holds half of the offset, the extent the rest: both must be added.
                iloc += Self.u32(offset / 2) + Self.u16(1) + Self.u64(offset - offset / 2) + Self.u64(item.data.count)
            } else {
                iloc += Self.u16(1) + Self.u32(offset) + Self.u32(item.data.count)
            }
        }
        boxes.append(Self.fullBox("iloc", version: version, iloc))
        if !idat.isEmpty { boxes.append(Self.box("idat", idat)) }
        let ipco = Self.box("ipco", properties.flatMap { $0 })
        var ipma = Self.u32(items.filter { !$0.properties.isEmpty }.count)
        for item in items where !item.properties.isEmpty {
            ipma += itemID(item.id) + [UInt8(item.properties.count)]
            for p in item.properties { ipma += wide ? Self.u16(p) : [UInt8(p)] }
        }
        boxes.append(Self.box("iprp", ipco + Self.fullBox("ipma", version: wide ? 1 : 0, flags: wide ? 1 : 0, ipma)))
        if !references.isEmpty {
            let refs = references.map { r in Self.box(r.type, itemID(r.from) + Self.u16(r.to.count) + r.to.flatMap(itemID)) }
            boxes.append(Self.fullBox("iref", version: wide ? 1 : 0, refs.flatMap { $0 }))
        }
        boxes += extraMetaBoxes
        return Self.fullBox("meta", version: 0, boxes.flatMap { $0 })
    }

    var bytes: [UInt8] {
        let ftyp = Self.box("ftyp", Array(brands[0].utf8) + Self.u32(0) + brands.flatMap { Array($0.utf8) })
        let metaSize = meta(mdatPayloadStart: 0).count
        let mdatPayload = items.filter { !$0.inItemData }.flatMap(\.data)
        return ftyp + meta(mdatPayloadStart: ftyp.count + metaSize + 8) + Self.box("mdat", mdatPayload)
    }

    func write(_ folder: String, _ name: String) -> String { MediaFixtures.write(bytes, folder, name) }
}

/// The coded pictures of the committed HEIF fixtures, taken apart by glimt's own parser.
enum HEIFFixtures {
    static func path(_ name: String) -> String { Fixtures.url("heif/\(name)").path }

    struct Coded {
        let configuration: [UInt8]
        let data: [UInt8]
        let width: Int
        let height: Int
    }

    static func coded(_ container: HEIFContainer, _ id: Int) throws -> Coded {
        var configuration: [UInt8] = [], size = (0, 0)
        for (p, _) in container.properties(of: id) {
            if case .hevcConfiguration(let c) = p { configuration = c }
            if case .size(let w, let h) = p { size = (w, h) }
        }
        return Coded(configuration: configuration, data: try container.data(of: id), width: size.0, height: size.1)
    }

    /// The grid fixture's 12 tiles (4 columns, 3 rows of 64x64; the picture is 216x176 stored).
    static func gridTiles() throws -> [Coded] {
        let container = try HEIFContainer(file: try HEIFFileBytes(path: path("grid_irot.heic")))
        return try container.referenced(from: container.primary, type: "dimg").map { try coded(container, $0) }
    }

    /// The single picture of the plain fixture (216x176 coded; clap makes it 215x175).
    static func plainPicture() throws -> Coded {
        let container = try HEIFContainer(file: try HEIFFileBytes(path: path("plain_clap_irot_imir.heic")))
        return try coded(container, container.primary)
    }

    /// One HEVC item with its configuration, size and nclx: properties 1 hvcC, 2 ispe, 3 colr.
    static func single(_ picture: Coded, wide: Bool = false) -> HEIFTestFile {
        var file = HEIFTestFile()
        file.wide = wide
        file.properties = [
            HEIFTestFile.box("hvcC", picture.configuration), HEIFTestFile.ispe(picture.width, picture.height),
            HEIFTestFile.nclx(matrix: 6, fullRange: true),
        ]
        file.items = [.init(id: 1, type: "hvc1", data: picture.data, properties: [wide ? 0x8001 : 0x81, 2, 3])]
        return file
    }

    /// The grid fixture rebuilt: item 1 the grid (in `idat`), items 2...13 the tiles.
    static func grid(_ tiles: [Coded], wide: Bool = false, width: Int = 216, height: Int = 176) -> HEIFTestFile {
        var file = HEIFTestFile()
        file.wide = wide
        file.properties = [
            HEIFTestFile.box("hvcC", tiles[0].configuration), HEIFTestFile.ispe(64, 64),
            HEIFTestFile.nclx(matrix: 6, fullRange: true), HEIFTestFile.ispe(width, height),
        ]
        file.items = [
            .init(
                id: 1, type: "grid", data: HEIFTestFile.grid(rows: 3, columns: 4, width: width, height: height, wide: wide),
                inItemData: true, properties: [4, 3])
        ]
        for (i, tile) in tiles.enumerated() {
            file.items.append(.init(id: i + 2, type: "hvc1", data: tile.data, properties: [1, 2, 3]))
        }
        file.references = [("dimg", 1, Array(2...(tiles.count + 1)))]
        return file
    }
}
