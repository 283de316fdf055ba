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

    /// Where upright pixel (x, y) is read from in a stored `width` x `height` picture: every
    /// orientation reads along straight lines, index = origin + x * stepX + y * stepY.
    private func steps(width: Int, height: Int) -> (origin: Int, stepX: Int, stepY: Int) {
        switch self {
        case .upright: return (0, 1, width)
        case .mirrored: return (width - 1, -1, width)
        case .rotated180: return ((height - 1) * width + width - 1, -1, -width)
        case .flipped: return ((height - 1) * width, 1, -width)
        case .transposed: return (0, width, 1)
        case .rotated90: return ((height - 1) * width, -width, 1)
        case .transversed: return ((height - 1) * width + width - 1, -width, -1)
        case .rotated270: return (width - 1, width, -1)
        }
    }

    /// The stored pixels an upright rectangle shows, in a stored `width` x `height` picture
    /// (for converting only the part a crop needs).
    public func storedRect(
        x: Int, y: Int, width w: Int, height h: Int, storedWidth: Int, storedHeight: Int
    ) -> (x: Int, y: Int, width: Int, height: Int) {
        let (origin, stepX, stepY) = steps(width: storedWidth, height: storedHeight)
        let corners = [(x, y), (x + w - 1, y + h - 1)].map { ux, uy in
            let index = origin + ux * stepX + uy * stepY
            return (index % storedWidth, index / storedWidth)
        }
        let x0 = min(corners[0].0, corners[1].0), y0 = min(corners[0].1, corners[1].1)
        return (x0, y0, abs(corners[0].0 - corners[1].0) + 1, abs(corners[0].1 - corners[1].1) + 1)
    }

    /// The samples of a `width` x `height` picture (`channels` interleaved per pixel) in upright order.
    package func remap<T>(_ source: [T], width: Int, height: Int, channels: Int) -> [T] {
        if self == .upright { return source }
        precondition(source.count == width * height * channels)
        let (outWidth, outHeight) = uprightSize(width: width, height: height)
        let (origin, stepX, stepY) = steps(width: width, height: height)
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
