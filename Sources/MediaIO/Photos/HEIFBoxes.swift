import Foundation
import GlimtCore

/// One ISOBMFF box (ISO/IEC 14496-12 4.2): its type and where its payload lies in the bytes it
/// was read from. Sizes are checked against the enclosing box when the box is found, so a payload
/// range is always inside the buffer.
struct HEIFBox {
    let type: String
    /// Where the box starts (its size field), in the buffer's or the file's byte positions.
    let start: Int
    let payload: Range<Int>
}

/// Big-endian reads over a byte buffer, each checked against `end` (a box's end, not only the
/// buffer's): a field that runs past its box is an error naming the box, never a read elsewhere.
struct HEIFByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    /// The box being read, for the error message.
    let box: String

    init(_ bytes: [UInt8], range: Range<Int>, box: String) {
        self.bytes = bytes
        position = max(0, range.lowerBound)
        end = min(range.upperBound, bytes.count)
        self.box = box
    }

    var remaining: Int { max(0, end - position) }

    private func ends() -> GlimtError { GlimtError("truncated or corrupt HEIF: the '\(box)' box ends early") }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else { throw ends() }
        position += count
    }

    mutating func u8() throws -> UInt8 {
        guard remaining >= 1 else { throw ends() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws -> Int { try Int(uint(byteCount: 2)) }
    mutating func u32() throws -> Int { try Int(uint(byteCount: 4)) }

    /// An unsigned big-endian integer of 0 to 8 bytes (ISOBMFF's variable field sizes; 0 reads as 0).
    mutating func uint(byteCount: Int) throws -> UInt64 {
        guard (0...8).contains(byteCount), byteCount <= remaining else { throw ends() }
        var value: UInt64 = 0
        for i in 0..<byteCount { value = value << 8 | UInt64(bytes[position + i]) }
        position += byteCount
        return value
    }

    /// A field of `byteCount` bytes read as an offset or a length: must fit in an Int that later
    /// sums cannot overflow (files here are far smaller than 2^62 bytes).
    mutating func size(byteCount: Int) throws -> Int {
        let value = try uint(byteCount: byteCount)
        guard value < 1 << 62 else { throw GlimtError("truncated or corrupt HEIF: a size in the '\(box)' box is \(value)") }
        return Int(value)
    }

    mutating func fourCC() throws -> String {
        guard remaining >= 4 else { throw ends() }
        defer { position += 4 }
        return HEIFBoxes.fourCC(bytes, at: position)
    }

    /// Version and flags of a full box (ISO/IEC 14496-12 4.2).
    mutating func fullBoxHeader() throws -> (version: Int, flags: Int) {
        let word = try u32()
        return (word >> 24, word & 0xFF_FFFF)
    }

}

/// Box headers, in memory and in a file.
enum HEIFBoxes {
    /// More boxes than this side by side is a hostile file, not a photo (an iPhone 48 MP photo
    /// has about 200 items).
    static let maxBoxesPerLevel = 100_000

    static func fourCC(_ bytes: [UInt8], at i: Int) -> String {
        String(decoding: bytes[i..<(i + 4)].map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// The boxes inside `range` of `bytes`, one after the other. A size of 0 means "to the end".
    static func children(of bytes: [UInt8], in range: Range<Int>, parent: String) throws -> [HEIFBox] {
        var boxes: [HEIFBox] = []
        var offset = range.lowerBound
        let end = min(range.upperBound, bytes.count)
        while offset < end {
            guard boxes.count < maxBoxesPerLevel else {
                throw GlimtError("truncated or corrupt HEIF: more than \(maxBoxesPerLevel) boxes in '\(parent)'")
            }
            guard end - offset >= 8 else {
                throw GlimtError("truncated or corrupt HEIF: a box header in '\(parent)' is cut short")
            }
            let header = Array(bytes[offset..<min(end, offset + 16)])
            let (type, headerSize, declared) = try parseHeader(header, available: end - offset, parent: parent)
            let size = declared ?? (end - offset)
            boxes.append(HEIFBox(type: type, start: offset, payload: (offset + headerSize)..<(offset + size)))
            offset += size
        }
        return boxes
    }

    /// Type, header size and box size (nil: to the end) of the box whose first bytes are `header`,
    /// where `available` bytes are left in its parent.
    static func parseHeader(_ header: [UInt8], available: Int, parent: String) throws -> (type: String, headerSize: Int, size: Int?) {
        guard header.count >= 8 else { throw GlimtError("truncated or corrupt HEIF: a box header in '\(parent)' is cut short") }
        let type = fourCC(header, at: 4)
        var reader = HEIFByteReader(header, range: 0..<header.count, box: type)
        let size32 = try reader.u32()
        var headerSize = 8
        var size: Int?
        switch size32 {
        case 0: size = nil
        case 1:
            guard header.count >= 16 else { throw GlimtError("truncated or corrupt HEIF: the '\(type)' box header is cut short") }
            try reader.skip(4)
            let large = try reader.uint(byteCount: 8)
            headerSize = 16
            guard large <= UInt64(Int.max) else { throw sizeError(type, large, available) }
            size = Int(large)
        default: size = size32
        }
        if let size {
            guard size >= headerSize else {
                throw GlimtError("truncated or corrupt HEIF: the '\(type)' box has an impossible size of \(size) bytes")
            }
            guard size <= available else { throw sizeError(type, UInt64(size), available) }
        }
        return (type, headerSize, size)
    }

    private static func sizeError(_ type: String, _ size: UInt64, _ available: Int) -> GlimtError {
        GlimtError("truncated or corrupt HEIF: the '\(type)' box says \(size) bytes but only \(available) are left")
    }
}

/// The file, read in bounded pieces: the box headers at the top level, the `meta` box whole, and
/// each item's bytes when it is decoded. Never the whole file at once.
final class HEIFFileBytes {
    let size: Int
    private let handle: FileHandle?
    /// The file's bytes when they are already in memory (the fuzz tests: no file per mutant).
    private let bytes: [UInt8]

    init(path: String) throws {
        guard let handle = FileName.handleForReading(path) else { throw GlimtError("cannot be opened for reading", path: path) }
        self.handle = handle
        bytes = []
        do {
            size = Int(try handle.seekToEnd())
        } catch {
            try? handle.close()
            throw GlimtError("cannot be read: \(error.localizedDescription)", path: path)
        }
    }

    init(bytes: [UInt8]) {
        handle = nil
        self.bytes = bytes
        size = bytes.count
    }

    deinit { try? handle?.close() }

    /// Exactly `count` bytes from `offset`, both checked against the file's size.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw GlimtError("truncated or corrupt HEIF: bytes \(offset)..<\(offset &+ count) lie past the end of the file (\(size) bytes)")
        }
        if count == 0 { return [] }
        guard let handle else { return Array(bytes[offset..<(offset + count)]) }
        let data: Data?
        do {
            try handle.seek(toOffset: UInt64(offset))
            data = try handle.read(upToCount: count)
        } catch {
            throw GlimtError("cannot be read: \(error.localizedDescription)")
        }
        guard let data, data.count == count else { throw GlimtError("truncated or corrupt HEIF: the file ended while being read") }
        return [UInt8](data)
    }

    /// The top-level boxes, headers only.
    func topLevelBoxes() throws -> [HEIFBox] {
        var boxes: [HEIFBox] = []
        var offset = 0
        while offset < size {
            guard boxes.count < HEIFBoxes.maxBoxesPerLevel else {
                throw GlimtError("truncated or corrupt HEIF: more than \(HEIFBoxes.maxBoxesPerLevel) boxes at the top level")
            }
            guard size - offset >= 8 else { throw GlimtError("truncated or corrupt HEIF: the last box header is cut short") }
            let header = try read(at: offset, count: min(16, size - offset))
            let (type, headerSize, declared) = try HEIFBoxes.parseHeader(header, available: size - offset, parent: "file")
            let boxSize = declared ?? (size - offset)
            boxes.append(HEIFBox(type: type, start: offset, payload: (offset + headerSize)..<(offset + boxSize)))
            offset += boxSize
        }
        return boxes
    }
}
