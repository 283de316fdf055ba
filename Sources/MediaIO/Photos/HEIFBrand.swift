import Foundation
import GlimtCore

/// The HEIF-family format a file declares in its leading `ftyp` box, if any (ISO/IEC 23008-12).
/// Such files go to glimt's own HEIF reader: FFmpeg before 7.1 has no HEIF demuxer and only says
/// "moov atom not found".
enum HEIFBrand: String {
    case heic = "HEIC"
    case avif = "AVIF"
    case heif = "HEIF"

    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heifBrands: Set<String> = ["mif1", "msf1", "mif2"]

    init?(contentsOf path: String) {
        guard let handle = FileName.handleForReading(path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 256) else { return nil }
        self.init(fileStart: [UInt8](head))
    }

    /// Reads brands only inside both the box and the bytes given.
    init?(fileStart bytes: [UInt8]) {
        guard bytes.count >= 16, String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp" else { return nil }
        let declared = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(max(declared, 16), bytes.count)
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self))
            offset += 4
        }
        if brands.contains(where: Self.heicBrands.contains) {
            self = .heic
        } else if brands.contains(where: Self.avifBrands.contains) {
            self = .avif
        } else if brands.contains(where: Self.heifBrands.contains) {
            self = .heif
        } else {
            return nil
        }
    }
}
