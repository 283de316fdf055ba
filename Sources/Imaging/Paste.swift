extension RGBImage {
    /// Copies `image` with its top-left corner at (x, y); what falls outside is clipped.
    public mutating func paste(_ image: RGBImage, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let w = width, n = (x1 - x0) * 3
        image.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for row in y0..<y1 {
                    (dst.baseAddress! + (row * w + x0) * 3).update(from: src.baseAddress! + ((row - y) * image.width + (x0 - x)) * 3, count: n)
                }
            }
        }
    }
}
