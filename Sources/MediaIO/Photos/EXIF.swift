import Imaging

/// The few EXIF fields glimt uses, read from a TIFF-structured block (EXIF 2.32 4.5-4.6): the
/// orientation from IFD0, the capture time and its UTC offset from the Exif IFD. Every offset is
/// checked against the block; only IFD0 and the one Exif IFD it points to are visited, so a
/// file whose IFDs point at each other cannot loop. A damaged block reads as nil, not an error:
/// the picture does not depend on it.
public struct EXIF: Equatable, Sendable {
    /// Orientation (tag 0x0112), when present and 1...8.
    public let orientation: ImageOrientation?
    /// DateTimeOriginal (0x9003) as written: "YYYY:MM:DD HH:MM:SS", local time.
    public let dateTimeOriginal: String?
    /// OffsetTimeOriginal (0x9011): "+HH:MM" or "-HH:MM", the local time's offset from UTC.
    public let offsetTimeOriginal: String?

    /// When the photo was taken, in ISO 8601 ("2024-05-03T19:20:00+02:00", without the offset when
    /// the file gives none); nil without a well-formed DateTimeOriginal.
    public var captureTime: String? {
        guard let raw = dateTimeOriginal else { return nil }
        let c = Array(raw.utf8)
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard c.count >= 19, digits.allSatisfy({ (0x30...0x39).contains(c[$0]) }),
            c[4] == UInt8(ascii: ":"), c[7] == UInt8(ascii: ":"), c[10] == UInt8(ascii: " "),
            c[13] == UInt8(ascii: ":"), c[16] == UInt8(ascii: ":")
        else { return nil }
        let date =
            String(decoding: c[0..<4], as: UTF8.self) + "-" + String(decoding: c[5..<7], as: UTF8.self) + "-"
            + String(decoding: c[8..<10], as: UTF8.self) + "T" + String(decoding: c[11..<19], as: UTF8.self)
        guard let offset = offsetTimeOriginal else { return date }
        let o = Array(offset.utf8)
        guard o.count == 6, o[0] == UInt8(ascii: "+") || o[0] == UInt8(ascii: "-"), o[3] == UInt8(ascii: ":"),
            [1, 2, 4, 5].allSatisfy({ (0x30...0x39).contains(o[$0]) })
        else { return date }
        return date + offset
    }

    /// A capture time read elsewhere (a decoder's metadata), for its checks and formatting.
    init(dateTimeOriginal: String) {
        orientation = nil
        self.dateTimeOriginal = dateTimeOriginal
        offsetTimeOriginal = nil
    }

    /// An IFD with more entries than this is damage (a camera writes a few dozen).
    static let maxEntries = 1000

    /// The fields of the TIFF block `tiff`, or nil when it is not one.
    public init?(tiff: [UInt8]) {
        var reader = TIFFReader(bytes: tiff)
        guard let ifd0 = reader.header(), let entries = reader.entries(at: ifd0) else { return nil }
        orientation = entries[0x0112].flatMap { reader.short($0) }.flatMap { ImageOrientation(rawValue: $0) }
        var exifEntries: [Int: TIFFReader.Entry] = [:]
        if let pointer = entries[0x8769].flatMap({ reader.long($0) }), let found = reader.entries(at: pointer) {
            exifEntries = found
        }
        dateTimeOriginal = exifEntries[0x9003].flatMap { reader.ascii($0) }
        offsetTimeOriginal = exifEntries[0x9011].flatMap { reader.ascii($0) }
    }

    /// The Exif item of a HEIF file (ISO/IEC 23008-12 A.2.1): a 4-byte big-endian count of bytes
    /// to skip (usually the 6 of "Exif\0\0"), then the TIFF block.
    public init?(heifItem bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        let skip = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard skip <= bytes.count - 4 else { return nil }
        self.init(tiff: Array(bytes[(4 + skip)...]))
    }
}

/// Bounded reads of TIFF IFD entries in either byte order.
private struct TIFFReader {
    struct Entry { let type: Int; let count: Int; let valueOffset: Int }

    let bytes: [UInt8]
    var littleEndian = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    func uint(_ at: Int, _ size: Int) -> Int? {
        guard at >= 0, size <= 4, at <= bytes.count - size else { return nil }
        var value = 0
        for i in 0..<size {
            let byte = Int(bytes[at + i])
            value |= littleEndian ? byte << (8 * i) : byte << (8 * (size - 1 - i))
        }
        return value
    }

    /// The byte order and the offset of IFD0.
    mutating func header() -> Int? {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        guard uint(2, 2) == 42 else { return nil }
        return uint(4, 4)
    }

    /// The entries of the IFD at `offset` by tag (the first of each tag).
    func entries(at offset: Int) -> [Int: Entry]? {
        guard let count = uint(offset, 2), count <= EXIF.maxEntries else { return nil }
        var entries: [Int: Entry] = [:]
        for i in 0..<count {
            let at = offset + 2 + 12 * i
            guard let tag = uint(at, 2), let type = uint(at + 2, 2), let n = uint(at + 4, 4) else { return nil }
            if entries[tag] == nil { entries[tag] = Entry(type: type, count: n, valueOffset: at + 8) }
        }
        return entries
    }

    func short(_ e: Entry) -> Int? {
        guard e.type == 3, e.count >= 1 else { return nil }
        return uint(e.valueOffset, 2)
    }

    func long(_ e: Entry) -> Int? {
        guard e.type == 4 || e.type == 13, e.count >= 1 else { return nil }  // LONG or IFD
        return uint(e.valueOffset, 4)
    }

    /// An ASCII value, to its first null; values over 4 bytes are stored at an offset.
    func ascii(_ e: Entry) -> String? {
        guard e.type == 2, e.count >= 1, e.count <= 256 else { return nil }
        let start = e.count <= 4 ? e.valueOffset : uint(e.valueOffset, 4)
        guard let start, start >= 0, start <= bytes.count - e.count else { return nil }
        let text = bytes[start..<(start + e.count)].prefix { $0 != 0 }
        guard text.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
