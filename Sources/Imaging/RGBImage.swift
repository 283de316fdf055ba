/// An 8-bit RGB picture, rows top to bottom, pixels interleaved R, G, B with no row padding.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width > 0 && height > 0 && pixels.count == width * height * 3,
            "RGBImage: \(width)x\(height) needs \(width * height * 3) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)) {
        var p = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: p.count, by: 3) { p[i] = fill.r; p[i + 1] = fill.g; p[i + 2] = fill.b }
        self.init(width: width, height: height, pixels: p)
    }

    @inline(__always) public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
