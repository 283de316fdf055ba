/// Simple raster drawing on RGB images: outlines, filled boxes and bitmap-font text.
public struct RGB: Equatable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    public static let white = RGB(255, 255, 255), black = RGB(0, 0, 0), yellow = RGB(255, 214, 0), green = RGB(0, 220, 80)
}

extension RGBImage {
    public mutating func set(_ x: Int, _ y: Int, _ c: RGB) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = c.r; pixels[i + 1] = c.g; pixels[i + 2] = c.b
    }

    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ c: RGB) {
        let x0 = max(0, x), x1 = min(width, x + w), y0 = max(0, y), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 { set(xx, yy, c) }
        }
    }

    /// Alpha-blends a filled box (for caption backgrounds that keep the picture visible).
    public mutating func shade(x: Int, y: Int, width w: Int, height h: Int, _ c: RGB, alpha: Float) {
        let x0 = max(0, x), x1 = min(width, x + w), y0 = max(0, y), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 {
                let i = (yy * width + xx) * 3
                for (k, v) in [c.r, c.g, c.b].enumerated() {
                    pixels[i + k] = UInt8(Float(pixels[i + k]) * (1 - alpha) + Float(v) * alpha + 0.5)
                }
            }
        }
    }

    public mutating func outline(_ box: Box, _ c: RGB, thickness t: Int) {
        let x0 = Int(box.x.rounded()), y0 = Int(box.y.rounded())
        let x1 = Int(box.maxX.rounded()), y1 = Int(box.maxY.rounded())
        fill(x: x0, y: y0, width: x1 - x0, height: t, c)
        fill(x: x0, y: y1 - t, width: x1 - x0, height: t, c)
        fill(x: x0, y: y0, width: t, height: y1 - y0, c)
        fill(x: x1 - t, y: y0, width: t, height: y1 - y0, c)
    }

    /// Copies `image` with its top-left corner at (x, y); what falls outside is left out.
    public mutating func paste(_ image: RGBImage, x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + image.width), y0 = max(0, y), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let count = (x1 - x0) * 3
        for yy in y0..<y1 {
            let from = ((yy - y) * image.width + x0 - x) * 3, to = (yy * width + x0) * 3
            pixels.replaceSubrange(to..<(to + count), with: image.pixels[from..<(from + count)])
        }
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` x `scale`.
    public mutating func text(_ text: String, x: Int, y: Int, scale: Int, _ c: RGB) {
        var gx = x
        for ch in text {
            for row in 0..<BitmapFont.glyphHeight {
                for col in 0..<BitmapFont.glyphWidth where BitmapFont.ink(ch, col, row) {
                    fill(x: gx + col * scale, y: y + row * scale, width: scale, height: scale, c)
                }
            }
            gx += (BitmapFont.glyphWidth + 1) * scale
        }
    }

    /// Text on a dark box, readable on any picture.
    public mutating func label(_ s: String, x: Int, y: Int, scale: Int, _ c: RGB = .white) {
        let pad = scale * 2
        fill(x: x, y: y, width: BitmapFont.width(s, scale: scale) + 2 * pad, height: BitmapFont.height(scale: scale) + 2 * pad, .black)
        text(s, x: x + pad, y: y + pad, scale: scale, c)
    }
}
