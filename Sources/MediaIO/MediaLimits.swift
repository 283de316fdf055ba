/// How big a picture glimt-pure agrees to decode: past this a file is refused, not allocated.
enum MediaLimits {
    static let maxPixels = 100_000_000

    static func tooLargeReason(width: Int, height: Int) -> String {
        let megapixels = (width * height + 500_000) / 1_000_000
        return "picture too large: \(width)x\(height) is \(megapixels) MP, the limit is \(maxPixels / 1_000_000) MP"
    }
}
