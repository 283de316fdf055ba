/// Rectangular crops of RGB images.
public enum Crop {
    /// The part of `image` inside the rectangle, clamped to the image.
    public static func crop(_ image: RGBImage, x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        let x0 = max(0, min(x, image.width - 1)), y0 = max(0, min(y, image.height - 1))
        let w = max(1, min(w, image.width - x0)), h = max(1, min(h, image.height - y0))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for row in 0..<h {
            let s = ((y0 + row) * image.width + x0) * 3
            out.replaceSubrange(row * w * 3..<(row + 1) * w * 3, with: image.pixels[s..<(s + w * 3)])
        }
        return RGBImage(width: w, height: h, pixels: out)
    }
}
