/// Separable resampling of RGB images: area averaging when shrinking (every source pixel counts
/// in proportion to its overlap, so small faces do not alias away), Catmull-Rom bicubic when
/// enlarging.
public enum Resize {
    /// Per output coordinate: first source index and the weights of consecutive source pixels.
    private struct Taps {
        var start: [Int32]
        var count: [Int32]
        var weights: [Float]
    }

    /// `m` outputs over the `span` source pixels from `origin` (fractional: a region that moves
    /// by less than a pixel a frame moves smoothly) of a line of `n`.
    private static func taps(from n: Int, to m: Int, origin: Double = 0, span: Double? = nil) -> Taps {
        var start: [Int32] = [], count: [Int32] = [], weights: [Float] = []
        let scale = (span ?? Double(n)) / Double(m)
        for i in 0..<m {
            var ws: [Float] = []
            var s0 = 0
            if scale > 1 {
                let a = max(0, origin + Double(i) * scale), b = min(Double(n), origin + Double(i + 1) * scale)
                s0 = Int(a.rounded(.down))
                var j = s0
                while Double(j) < b && j < n {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    ws.append(Float(overlap / scale))
                    j += 1
                }
            } else {
                // Catmull-Rom over four source pixels, clamped at the edges: sharper than
                // bilinear when a phone's 1080p frame is cropped and enlarged for the film.
                let c = origin + (Double(i) + 0.5) * scale - 0.5
                let f = c.rounded(.down)
                let t = c - f
                s0 = Int(f) - 1
                let k = [((-0.5 * t + 1) * t - 0.5) * t, (1.5 * t - 2.5) * t * t + 1, ((-1.5 * t + 2) * t + 0.5) * t, (0.5 * t - 0.5) * t * t]
                // Fold taps that fall outside the picture onto its edge pixels.
                let first = min(max(s0, 0), max(0, n - 4))
                let count = min(4, n)
                var folded = [Double](repeating: 0, count: count)
                for j in 0..<4 { folded[min(max(s0 + j, 0), n - 1) - first] += k[j] }
                s0 = first
                ws = folded.map { Float($0) }
            }
            start.append(Int32(s0))
            count.append(Int32(ws.count))
            weights.append(contentsOf: ws)
        }
        return Taps(start: start, count: count, weights: weights)
    }

    public static func resize(_ image: RGBImage, width w: Int, height h: Int) -> RGBImage {
        precondition(w > 0 && h > 0, "Resize: empty target \(w)x\(h)")
        if w == image.width && h == image.height { return image }
        return resample(image, taps(from: image.width, to: w), taps(from: image.height, to: h), width: w, height: h)
    }

    /// The part of `image` inside `region` (in its pixels, fractional, within the picture) at
    /// `width` x `height`: a crop that zooms smoothly, frame by frame.
    public static func region(_ image: RGBImage, _ region: Box, width w: Int, height h: Int) -> RGBImage {
        precondition(w > 0 && h > 0, "Resize: empty target \(w)x\(h)")
        let x = Double(max(0, region.x)), y = Double(max(0, region.y))
        let hx = taps(from: image.width, to: w, origin: x, span: min(Double(region.width), Double(image.width) - x))
        let hy = taps(from: image.height, to: h, origin: y, span: min(Double(region.height), Double(image.height) - y))
        return resample(image, hx, hy, width: w, height: h)
    }

    private static func resample(_ image: RGBImage, _ hx: Taps, _ hy: Taps, width w: Int, height h: Int) -> RGBImage {
        // Horizontal pass into floats, then vertical pass with rounding. Every value is written
        // before it is read, so neither buffer is cleared first. Only the rows the vertical taps
        // read are passed (a region of a large picture needs a band of it).
        var top = image.height, bottom = 0
        for y in 0..<h where hy.count[y] > 0 {
            top = Swift.min(top, Int(hy.start[y]))
            bottom = Swift.max(bottom, Int(hy.start[y]) + Int(hy.count[y]))
        }
        let rows = Swift.max(0, bottom - top)
        let mid = [Float](unsafeUninitializedCapacity: rows * w * 3) { dst, made in
            image.pixels.withUnsafeBufferPointer { src in
                hx.start.withUnsafeBufferPointer { starts in
                    hx.count.withUnsafeBufferPointer { counts in
                        hx.weights.withUnsafeBufferPointer { weights in
                            for y in top..<bottom {
                                let row = src.baseAddress! + y * image.width * 3
                                var o = (y - top) * w * 3
                                var wi = 0
                                for x in 0..<w {
                                    var r: Float = 0, g: Float = 0, b: Float = 0
                                    var p = row + Int(starts[x]) * 3
                                    for k in 0..<Int(counts[x]) {
                                        let wt = weights[wi + k]
                                        r += Float(p[0]) * wt; g += Float(p[1]) * wt; b += Float(p[2]) * wt
                                        p += 3
                                    }
                                    wi += Int(counts[x])
                                    dst[o] = r; dst[o + 1] = g; dst[o + 2] = b
                                    o += 3
                                }
                            }
                        }
                    }
                }
            }
            made = rows * w * 3
        }
        let rowLength = w * 3
        var acc = [Float](repeating: 0, count: rowLength)
        let out = [UInt8](unsafeUninitializedCapacity: w * h * 3) { dst, made in
            mid.withUnsafeBufferPointer { src in
                acc.withUnsafeMutableBufferPointer { acc in
                    hy.weights.withUnsafeBufferPointer { weights in
                        var wi = 0
                        for y in 0..<h {
                            let s = Int(hy.start[y]) - top, n = Int(hy.count[y])
                            // Tap by tap over whole rows (the same sums in the same order per pixel as
                            // pixel by pixel, but the loop over a row vectorises).
                            for i in 0..<rowLength { acc[i] = 0 }
                            for k in 0..<n {
                                let weight = weights[wi + k]
                                let row = src.baseAddress! + (s + k) * rowLength
                                for i in 0..<rowLength { acc[i] += row[i] * weight }
                            }
                            let outRow = dst.baseAddress! + y * rowLength
                            for i in 0..<rowLength { outRow[i] = UInt8(min(255, max(0, acc[i] + 0.5))) }
                            wi += n
                        }
                    }
                }
            }
            made = w * h * 3
        }
        return RGBImage(width: w, height: h, pixels: out)
    }

    /// Scales so the longer side is `longSide` (never enlarging), keeping the aspect ratio.
    public static func fitting(_ image: RGBImage, longSide: Int) -> RGBImage {
        let long = max(image.width, image.height)
        guard long > longSide else { return image }
        let s = Double(longSide) / Double(long)
        return resize(image, width: max(1, Int((Double(image.width) * s).rounded())), height: max(1, Int((Double(image.height) * s).rounded())))
    }

    /// Fills exactly `width` x `height` from the part of `image` of that shape that holds `focus`
    /// as tightly as it can (smaller when the picture is), centred on it: a thumbnail that
    /// keeps what matters.
    public static func filling(_ image: RGBImage, width w: Int, height h: Int, around focus: Box) -> RGBImage {
        let aspect = Float(w) / Float(h)
        var rw = max(focus.width, focus.height * aspect, 1), rh = rw / aspect
        let s = min(1, Float(image.width) / rw, Float(image.height) / rh)
        rw *= s
        rh *= s
        let x = min(max(focus.center.x - rw / 2, 0), Float(image.width) - rw)
        let y = min(max(focus.center.y - rh / 2, 0), Float(image.height) - rh)
        return resize(
            Crop.crop(image, x: Int(x.rounded()), y: Int(y.rounded()), width: Int(rw.rounded()), height: Int(rh.rounded())), width: w, height: h)
    }
}
