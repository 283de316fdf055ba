import Foundation
import GlimtCore

/// An item property (ISO/IEC 23008-12 6.5), the ones glimt reads; the rest are kept by name.
enum HEIFProperty {
    /// The HEVC decoder configuration record, as libavcodec takes it for extradata.
    case hevcConfiguration([UInt8])
    /// The AV1 codec configuration record (`av1C`), likewise.
    case av1Configuration([UInt8])
    case size(width: Int, height: Int)
    /// Anticlockwise turns of 90 degrees.
    case rotation(Int)
    /// 0: top and bottom swap; 1: left and right swap (the amended `imir` `mode`; libheif, iOS and
    /// pillow-heif read it so, the 2017 text's "axis" is the other way round).
    case mirror(Int)
    case cleanAperture(HEIFCleanAperture)
    /// `colr` of type nclx: ITU-T H.273 code points.
    case colourCodes(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)
    /// `colr` with an ICC profile (`prof` or `rICC`): read, not applied (no colour management).
    case iccProfile
    case bitsPerChannel([Int])
    case other(String)

    var name: String {
        switch self {
        case .hevcConfiguration: return "hvcC"
        case .av1Configuration: return "av1C"
        case .size: return "ispe"
        case .rotation: return "irot"
        case .mirror: return "imir"
        case .cleanAperture: return "clap"
        case .colourCodes, .iccProfile: return "colr"
        case .bitsPerChannel: return "pixi"
        case .other(let type): return type
        }
    }

    /// Properties glimt acts on, or may ignore without showing a wrong picture, when a file marks
    /// them essential. (`pasp`: pictures are taken as square-pixelled, as libheif does.)
    var isUnderstood: Bool {
        switch self {
        case .other(let type): return ["pasp", "auxC"].contains(type)
        default: return true
        }
    }
}

/// `clap`: a crop given as fractions, centred (ISO/IEC 14496-12 12.1.4).
struct HEIFCleanAperture {
    let width: (Int, Int), height: (Int, Int), horizontalOffset: (Int, Int), verticalOffset: (Int, Int)

    /// The crop rectangle in a `imageWidth` x `imageHeight` picture; nil when it is not inside it.
    func rectangle(imageWidth: Int, imageHeight: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard width.1 > 0, height.1 > 0, horizontalOffset.1 > 0, verticalOffset.1 > 0 else { return nil }
        // Exact halves: the centre is (size - 1) / 2 + offset, the left edge centre - (crop - 1) / 2.
        func edge(_ crop: (Int, Int), _ offset: (Int, Int), _ image: Int) -> (start: Int, count: Int)? {
            guard crop.0 % crop.1 == 0 else { return nil }
            let count = crop.0 / crop.1
            // start = (image - 1)/2 + offN/offD - (count - 1)/2; in Double, as the fields are 32-bit
            // and their products are not.
            let start = (Double(image - count) / 2 + Double(offset.0) / Double(offset.1)).rounded(.down)
            guard count >= 1, count <= image, start >= 0, start <= Double(image - count) else { return nil }
            return (Int(start), count)
        }
        guard let x = edge(width, horizontalOffset, imageWidth), let y = edge(height, verticalOffset, imageHeight) else { return nil }
        return (x.start, y.start, x.count, y.count)
    }
}

/// One item of the `meta` box (ISO/IEC 23008-12 6.4): a coded picture, a derived one (`grid`,
/// `iden`), or metadata (`Exif`).
struct HEIFItem {
    let id: Int
    let type: String
    let hidden: Bool
}

/// Where an item's bytes are (`iloc`, ISO/IEC 14496-12 8.11.3).
struct HEIFLocation {
    enum Source: Equatable {
        case file, itemData
        /// Why glimt cannot read it (another file, item offsets).
        case unsupported(String)
    }
    let source: Source
    /// Absolute positions in the file or in `idat`; a length of nil means "to the end".
    let extents: [(offset: Int, length: Int?)]
}

/// The `meta` box of a HEIF file: items, their locations, properties and references.
/// Only `meta` is read into memory (at most `maxMetaBytes`); item bytes are read when needed.
struct HEIFContainer {
    static let maxMetaBytes = 16 << 20
    /// The most bytes one item may have: a 100 MP HEVC picture at high quality is well below.
    static let maxItemBytes = 128 << 20

    let primary: Int
    let items: [Int: HEIFItem]
    let locations: [Int: HEIFLocation]
    /// Property associations of each item, in `ipma` order (which is the order transformative
    /// properties apply in).
    let associations: [Int: [(property: HEIFProperty, essential: Bool)]]
    /// Typed references from each item: (type, [to]), in `iref` order.
    let references: [Int: [(type: String, to: [Int])]]
    let itemData: [UInt8]
    let file: HEIFFileBytes

    init(file: HEIFFileBytes) throws {
        self.file = file
        let top = try file.topLevelBoxes()
        guard top.first?.type == "ftyp" else { throw GlimtError("not a HEIF file: it does not start with an 'ftyp' box") }
        guard let metaBox = top.first(where: { $0.type == "meta" }) else { throw GlimtError("truncated or corrupt HEIF: there is no 'meta' box") }
        guard metaBox.payload.count <= Self.maxMetaBytes else {
            throw GlimtError("the 'meta' box has \(metaBox.payload.count) bytes, more than the \(Self.maxMetaBytes >> 20) MB glimt reads")
        }
        let meta = try file.read(at: metaBox.payload.lowerBound, count: metaBox.payload.count)
        var header = HEIFByteReader(meta, range: 0..<meta.count, box: "meta")
        _ = try header.fullBoxHeader()
        var boxes: [String: HEIFBox] = [:]
        for box in try HEIFBoxes.children(of: meta, in: 4..<meta.count, parent: "meta") where boxes[box.type] == nil {
            boxes[box.type] = box
        }
        func required(_ type: String) throws -> HEIFBox {
            guard let box = boxes[type] else { throw GlimtError("truncated or corrupt HEIF: the 'meta' box has no '\(type)' box") }
            return box
        }
        try Self.checkHandler(meta, try required("hdlr"))
        primary = try Self.primaryItem(meta, try required("pitm"))
        items = try Self.parseItems(meta, try required("iinf"))
        locations = try Self.parseLocations(meta, try required("iloc"))
        associations = try Self.parseProperties(meta, try required("iprp"))
        references = try boxes["iref"].map { try Self.parseReferences(meta, $0) } ?? [:]
        itemData = boxes["idat"].map { Array(meta[$0.payload]) } ?? []
        guard items[primary] != nil else {
            throw GlimtError("truncated or corrupt HEIF: the primary item \(primary) is not among the items in 'iinf'")
        }
    }

    func item(_ id: Int) throws -> HEIFItem {
        guard let item = items[id] else { throw GlimtError("truncated or corrupt HEIF: item \(id) is referred to but not in 'iinf'") }
        return item
    }

    func properties(of id: Int) -> [(property: HEIFProperty, essential: Bool)] { associations[id] ?? [] }

    /// The items `id` refers to with references of `type` (`dimg`, `thmb`, `cdsc`, `auxl`), in order.
    func referenced(from id: Int, type: String) -> [Int] {
        (references[id] ?? []).filter { $0.type == type }.flatMap(\.to)
    }

    /// Items of `type` that describe `id` (`cdsc` references point from the metadata to the picture).
    func descriptions(of id: Int, itemType: String) -> [Int] {
        items.values.filter { $0.type == itemType && referenced(from: $0.id, type: "cdsc").contains(id) }.map(\.id).sorted()
    }

    /// The bytes of item `id`, at most `limit`, from the file or from `idat`.
    func data(of id: Int, limit: Int = maxItemBytes) throws -> [UInt8] {
        guard let location = locations[id] else { throw GlimtError("truncated or corrupt HEIF: item \(id) has no location in 'iloc'") }
        if case .unsupported(let reason) = location.source { throw GlimtError(reason) }
        var total = 0
        var result: [UInt8] = []
        for extent in location.extents {
            let available = location.source == .file ? file.size : itemData.count
            guard extent.offset <= available else {
                throw GlimtError(
                    "truncated or corrupt HEIF: item \(id)'s data starts at byte \(extent.offset), past the end of its \(available) bytes")
            }
            let length = extent.length ?? (available - extent.offset)
            guard length <= available - extent.offset else {
                throw GlimtError(
                    "truncated or corrupt HEIF: item \(id)'s data (\(length) bytes from byte \(extent.offset)) runs past the end of its \(available) bytes"
                )
            }
            total += length
            guard total <= limit else { throw GlimtError("item \(id) has more than \(limit >> 20) MB of data, more than glimt reads") }
            switch location.source {
            case .file: result += try file.read(at: extent.offset, count: length)
            case .itemData: result += itemData[extent.offset..<(extent.offset + length)]
            case .unsupported: break
            }
        }
        return result
    }

    // MARK: Boxes of `meta`

    private static func checkHandler(_ meta: [UInt8], _ box: HEIFBox) throws {
        var r = HEIFByteReader(meta, range: box.payload, box: "hdlr")
        _ = try r.fullBoxHeader()
        try r.skip(4)  // pre_defined
        let handler = try r.fourCC()
        guard handler == "pict" else { throw GlimtError("is a HEIF file without pictures (its handler is '\(handler)', not 'pict')") }
    }

    private static func primaryItem(_ meta: [UInt8], _ box: HEIFBox) throws -> Int {
        var r = HEIFByteReader(meta, range: box.payload, box: "pitm")
        let (version, _) = try r.fullBoxHeader()
        return version == 0 ? try r.u16() : try r.u32()
    }

    private static func parseItems(_ meta: [UInt8], _ box: HEIFBox) throws -> [Int: HEIFItem] {
        var r = HEIFByteReader(meta, range: box.payload, box: "iinf")
        let (version, _) = try r.fullBoxHeader()
        _ = version == 0 ? try r.u16() : try r.u32()  // entry count: the boxes themselves say
        var items: [Int: HEIFItem] = [:]
        for entry in try HEIFBoxes.children(of: meta, in: r.position..<box.payload.upperBound, parent: "iinf") where entry.type == "infe" {
            var e = HEIFByteReader(meta, range: entry.payload, box: "infe")
            let (version, flags) = try e.fullBoxHeader()
            guard version >= 2 else { continue }  // versions 0 and 1 name no item type: nothing to show
            let id = version == 2 ? try e.u16() : try e.u32()
            try e.skip(2)  // protection index
            let type = try e.fourCC()
            items[id] = HEIFItem(id: id, type: type, hidden: flags & 1 != 0)
        }
        return items
    }

    private static func parseLocations(_ meta: [UInt8], _ box: HEIFBox) throws -> [Int: HEIFLocation] {
        var r = HEIFByteReader(meta, range: box.payload, box: "iloc")
        let (version, _) = try r.fullBoxHeader()
        guard version <= 2 else { throw GlimtError("the 'iloc' box is of version \(version), which glimt does not know") }
        let sizes = try r.u8(), more = try r.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseOffsetSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 15) : 0
        for (name, value) in [("offset", offsetSize), ("length", lengthSize), ("base offset", baseOffsetSize), ("index", indexSize)]
        where ![0, 4, 8].contains(value) {
            throw GlimtError("truncated or corrupt HEIF: 'iloc' gives a \(name) size of \(value) bytes (0, 4 or 8 are allowed)")
        }
        let count = version < 2 ? try r.u16() : try r.u32()
        var locations: [Int: HEIFLocation] = [:]
        for _ in 0..<count {
            let id = version < 2 ? try r.u16() : try r.u32()
            let method = version >= 1 ? try r.u16() & 15 : 0
            let dataReference = try r.u16()
            let base = try r.size(byteCount: baseOffsetSize)
            let extentCount = try r.u16()
            var extents: [(Int, Int?)] = []
            for _ in 0..<extentCount {
                try r.skip(indexSize)
                let offset = try r.size(byteCount: offsetSize), length = try r.size(byteCount: lengthSize)
                extents.append((base + offset, length == 0 ? nil : length))
            }
            let source: HEIFLocation.Source
            if dataReference != 0 {
                source = .unsupported("item \(id)'s data is in another file (data reference \(dataReference)), which glimt does not read")
            } else if method > 1 {
                source = .unsupported("item \(id) is stored by construction method \(method) (item offsets), which glimt does not read")
            } else {
                source = method == 0 ? .file : .itemData
            }
            locations[id] = HEIFLocation(source: source, extents: extents)
        }
        return locations
    }

    private static func parseProperties(_ meta: [UInt8], _ box: HEIFBox) throws -> [Int: [(property: HEIFProperty, essential: Bool)]] {
        let children = try HEIFBoxes.children(of: meta, in: box.payload, parent: "iprp")
        guard let ipco = children.first(where: { $0.type == "ipco" }) else {
            throw GlimtError("truncated or corrupt HEIF: the 'iprp' box has no 'ipco' box")
        }
        let properties = try HEIFBoxes.children(of: meta, in: ipco.payload, parent: "ipco").map { try parseProperty(meta, $0) }
        var associations: [Int: [(property: HEIFProperty, essential: Bool)]] = [:]
        for ipma in children where ipma.type == "ipma" {
            var r = HEIFByteReader(meta, range: ipma.payload, box: "ipma")
            let (version, flags) = try r.fullBoxHeader()
            let count = try r.u32()
            for _ in 0..<count {
                let id = version < 1 ? try r.u16() : try r.u32()
                let n = Int(try r.u8())
                for _ in 0..<n {
                    // 15-bit property indices when flag 1 is set, else 7-bit; the top bit is "essential".
                    let wide = flags & 1 != 0
                    let value = wide ? try r.u16() : Int(try r.u8())
                    let essential = value & (wide ? 0x8000 : 0x80) != 0
                    let index = value & (wide ? 0x7FFF : 0x7F)
                    if index == 0 { continue }  // "no property"
                    guard index <= properties.count else {
                        throw GlimtError("truncated or corrupt HEIF: item \(id) is given property \(index), but 'ipco' has \(properties.count)")
                    }
                    associations[id, default: []].append((properties[index - 1], essential))
                }
            }
        }
        return associations
    }

    private static func parseProperty(_ meta: [UInt8], _ box: HEIFBox) throws -> HEIFProperty {
        var r = HEIFByteReader(meta, range: box.payload, box: box.type)
        switch box.type {
        case "hvcC":
            // 23 bytes of fixed fields before the parameter-set arrays.
            guard box.payload.count >= 23 else { throw GlimtError("truncated or corrupt HEIF: the 'hvcC' box has only \(box.payload.count) bytes") }
            return .hevcConfiguration(Array(meta[box.payload]))
        case "av1C":
            // Marker and version, profile and level, flags, delay: 4 bytes before any OBUs.
            guard box.payload.count >= 4 else { throw GlimtError("truncated or corrupt HEIF: the 'av1C' box has only \(box.payload.count) bytes") }
            return .av1Configuration(Array(meta[box.payload]))
        case "ispe":
            _ = try r.fullBoxHeader()
            return .size(width: try r.u32(), height: try r.u32())
        case "irot": return .rotation(Int(try r.u8() & 3))
        case "imir": return .mirror(Int(try r.u8() & 1))
        case "clap":
            func signed(_ v: Int) -> Int { v >= 1 << 31 ? v - (1 << 32) : v }
            let w = (try r.u32(), try r.u32()), h = (try r.u32(), try r.u32())
            let x = (signed(try r.u32()), try r.u32()), y = (signed(try r.u32()), try r.u32())
            return .cleanAperture(HEIFCleanAperture(width: w, height: h, horizontalOffset: x, verticalOffset: y))
        case "colr":
            switch try r.fourCC() {
            case "nclx":
                let primaries = try r.u16(), transfer = try r.u16(), matrix = try r.u16()
                return .colourCodes(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: try r.u8() & 0x80 != 0)
            case "prof", "rICC": return .iccProfile
            default: return .other("colr")
            }
        case "pixi":
            _ = try r.fullBoxHeader()
            let channels = Int(try r.u8())
            return .bitsPerChannel(try (0..<channels).map { _ in Int(try r.u8()) })
        default:
            return .other(box.type)
        }
    }

    private static func parseReferences(_ meta: [UInt8], _ box: HEIFBox) throws -> [Int: [(type: String, to: [Int])]] {
        var r = HEIFByteReader(meta, range: box.payload, box: "iref")
        let (version, _) = try r.fullBoxHeader()
        var references: [Int: [(type: String, to: [Int])]] = [:]
        for child in try HEIFBoxes.children(of: meta, in: r.position..<box.payload.upperBound, parent: "iref") {
            var c = HEIFByteReader(meta, range: child.payload, box: child.type)
            let from = version == 0 ? try c.u16() : try c.u32()
            let count = try c.u16()
            let to = try (0..<count).map { _ in version == 0 ? try c.u16() : try c.u32() }
            references[from, default: []].append((child.type, to))
        }
        return references
    }
}
