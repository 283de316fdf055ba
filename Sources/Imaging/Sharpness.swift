import Foundation

/// Sharpness as the variance of a Laplacian on a small grey copy: blurry pictures change slowly
/// from pixel to pixel, so their second derivative is flat.
public enum Sharpness {
    /// Side of the grey copy the Laplacian runs on (96 x 96, as the design gives it): fixed, so the measure
    /// does not depend on the picture's resolution.
    public static let side = 96

    /// Variance of the 4-neighbour Laplacian of the grey (BT.601 luma, 0-255) copy.
    public static func laplacianVariance(_ image: RGBImage) -> Double {
        let small = Resize.resize(image, width: side, height: side)
        let grey = Grey.luma(small)
        return laplacianVariance(grey: grey, width: side, height: side)
    }

    public static func laplacianVariance(grey g: [Float], width w: Int, height h: Int) -> Double {
        guard w >= 3, h >= 3 else { return 0 }
        var sum = 0.0, sumSq = 0.0
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let i = y * w + x
                let l = Double(g[i - 1] + g[i + 1] + g[i - w] + g[i + w] - 4 * g[i])
                sum += l
                sumSq += l * l
            }
        }
        let n = Double((w - 2) * (h - 2))
        let mean = sum / n
        return max(0, sumSq / n - mean * mean)
    }

    /// Maps a Laplacian variance to [0, 1] with 1 - exp(-v / 400): about 0.22 for a soft, slightly
    /// out-of-focus frame (v = 100), 0.63 at v = 400 (ordinary sharp video), 0.92 at v = 1000
    /// (crisp detail). Measured on 96x96 copies of the bundled clips and photos.
    public static func normalized(_ variance: Double) -> Double {
        1 - (-variance / 400).exp()
    }

    public static func score(_ image: RGBImage) -> Double { normalized(laplacianVariance(image)) }
}

/// Grey (luma) copies of RGB images.
public enum Grey {
    public static func luma(_ image: RGBImage) -> [Float] {
        let count = image.width * image.height
        return [Float](unsafeUninitializedCapacity: count) { out, made in
            image.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    out[i] = 0.299 * Float(p[3 * i]) + 0.587 * Float(p[3 * i + 1]) + 0.114 * Float(p[3 * i + 2])
                }
            }
            made = count
        }
    }
}

extension Double {
    @inline(__always) func exp() -> Double { Foundation.exp(self) }
}
