/// A 16-bit-per-channel RGB picture in three planes, rows top to bottom, no row padding.
/// Values span 0...65535 whatever the source depth (10-bit 1023 becomes 65535) and keep the
/// source's transfer curve (e.g. HLG or PQ): tone mapping is left to whoever shows them.
public struct RGB16Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var red: [UInt16]
    public var green: [UInt16]
    public var blue: [UInt16]

    public init(width: Int, height: Int, red: [UInt16], green: [UInt16], blue: [UInt16]) {
        let count = width * height
        precondition(
            width > 0 && height > 0 && red.count == count && green.count == count && blue.count == count,
            "RGB16Image: \(width)x\(height) needs \(count) samples per plane")
        self.width = width
        self.height = height
        self.red = red
        self.green = green
        self.blue = blue
    }

    @inline(__always) public func pixel(_ x: Int, _ y: Int) -> (r: UInt16, g: UInt16, b: UInt16) {
        let i = y * width + x
        return (red[i], green[i], blue[i])
    }

    /// The same picture rounded to 8 bits.
    public func to8Bit() -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            pixels[3 * i] = UInt8((UInt32(red[i]) * 255 + 32767) / 65535)
            pixels[3 * i + 1] = UInt8((UInt32(green[i]) * 255 + 32767) / 65535)
            pixels[3 * i + 2] = UInt8((UInt32(blue[i]) * 255 + 32767) / 65535)
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

extension ImageOrientation {
    /// The picture turned upright.
    public func apply(to image: RGB16Image) -> RGB16Image {
        if self == .upright { return image }
        let size = uprightSize(width: image.width, height: image.height)
        func turn(_ plane: [UInt16]) -> [UInt16] { remap(plane, width: image.width, height: image.height, channels: 1) }
        return RGB16Image(width: size.width, height: size.height, red: turn(image.red), green: turn(image.green), blue: turn(image.blue))
    }
}
