/// How big a picture glimt-pure agrees to decode: past this a file is refused, not allocated.
enum MediaLimits {
    static let maxPixels = 100_000_000
    /// Pictures larger than 1080p (1920x1088 as coded): where decoding, not measuring, is the
    /// bottleneck and each picture in flight costs memory worth bounding.
    static let fullHDPixels = 1920 * 1088
    /// Larger than 4K DCI (4096x2176 as coded): one picture in flight at a time.
    static let uhdPixels = 4096 * 2176
    /// Decoded pictures larger than this (4K deeper than 8 bits is 25 MB, 8K 50 MB; 4K 8-bit is
    /// 12.4 MB) are decoded on slice threads only where memory is short: an HEVC decoder holds
    /// 6-8 of them on one thread already, and every frame thread adds its own.
    static let largePictureBytes = 16 << 20

    static func tooLargeReason(width: Int, height: Int) -> String {
        let megapixels = (width * height + 500_000) / 1_000_000
        return "picture too large: \(width)x\(height) is \(megapixels) MP, the limit is \(maxPixels / 1_000_000) MP"
    }
}
