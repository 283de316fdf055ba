/// How a stored picture must be turned to be seen upright; raw values are EXIF's 1...8.
/// Photos carry it as EXIF, videos as a display matrix (phones store portrait video sideways).
public enum ImageOrientation: Int, Sendable, CaseIterable {
    case upright = 1
    case mirrored = 2
    case rotated180 = 3
    case flipped = 4
    /// Mirror across the top-left to bottom-right diagonal.
    case transposed = 5
    /// Turn 90° clockwise to show upright.
    case rotated90 = 6
    /// Mirror across the top-right to bottom-left diagonal.
    case transversed = 7
    /// Turn 270° clockwise (90° counter-clockwise) to show upright.
    case rotated270 = 8

    /// Width and height trade places.
    public var swapsSides: Bool { rawValue >= 5 }

    /// The upright size of a stored `width` x `height` picture.
    public func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsSides ? (height, width) : (width, height)
    }

    /// The picture turned upright.
    public func apply(to image: RGBImage) -> RGBImage {
        if self == .upright { return image }
        let size = uprightSize(width: image.width, height: image.height)
        let pixels = remap(image.pixels, width: image.width, height: image.height, channels: 3)
        return RGBImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// The samples of a `width` x `height` picture (`channels` interleaved per pixel) in upright order.
    package func remap<T>(_ source: [T], width: Int, height: Int, channels: Int) -> [T] {
        if self == .upright { return source }
        precondition(source.count == width * height * channels)
        let (outWidth, outHeight) = uprightSize(width: width, height: height)
        // Every orientation reads the source along straight lines: index = origin + x*stepX + y*stepY.
        let (origin, stepX, stepY): (Int, Int, Int)
        switch self {
        case .upright: (origin, stepX, stepY) = (0, 1, width)
        case .mirrored: (origin, stepX, stepY) = (width - 1, -1, width)
        case .rotated180: (origin, stepX, stepY) = ((height - 1) * width + width - 1, -1, -width)
        case .flipped: (origin, stepX, stepY) = ((height - 1) * width, 1, -width)
        case .transposed: (origin, stepX, stepY) = (0, width, 1)
        case .rotated90: (origin, stepX, stepY) = ((height - 1) * width, -width, 1)
        case .transversed: (origin, stepX, stepY) = ((height - 1) * width + width - 1, -width, -1)
        case .rotated270: (origin, stepX, stepY) = (width - 1, width, -1)
        }
        return [T](unsafeUninitializedCapacity: source.count) { out, count in
            source.withUnsafeBufferPointer { src in
                var o = 0
                for y in 0..<outHeight {
                    var s = origin + y * stepY
                    for _ in 0..<outWidth {
                        for c in 0..<channels { (out.baseAddress! + o + c).initialize(to: src[s * channels + c]) }
                        o += channels
                        s += stepX
                    }
                }
            }
            count = source.count
        }
    }
}
