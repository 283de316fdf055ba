import Imaging

/// Aligns a face to SFace's 112x112 template: the rotation, uniform scale and shift that best move
/// the five landmarks onto the template's five points (least squares), then one bilinear warp.
public enum FaceAlignment {
    /// Where SFace (like ArcFace) expects right eye, left eye, nose tip, right and left mouth
    /// corners in its 112x112 input.
    public static let template: [Point] = [
        Point(38.2946, 51.6963), Point(73.5318, 51.5014), Point(56.0252, 71.7366),
        Point(41.5493, 92.3655), Point(70.7299, 92.2041),
    ]
    public static let size = 112

    /// A similarity transform w = a * z + b on points as complex numbers (a = scale * e^(i angle)).
    public struct Similarity: Equatable, Sendable {
        public var a: (re: Double, im: Double)
        public var b: (re: Double, im: Double)

        public init(a: (re: Double, im: Double), b: (re: Double, im: Double)) {
            self.a = a
            self.b = b
        }

        public static func == (l: Similarity, r: Similarity) -> Bool {
            l.a == r.a && l.b == r.b
        }

        public func apply(_ p: Point) -> Point {
            let x = Double(p.x), y = Double(p.y)
            return Point(Float(a.re * x - a.im * y + b.re), Float(a.im * x + a.re * y + b.im))
        }

        public var inverse: Similarity {
            let n = a.re * a.re + a.im * a.im
            let ai = (re: a.re / n, im: -a.im / n)
            // z = a^-1 (w - b)
            return Similarity(a: ai, b: (re: -(ai.re * b.re - ai.im * b.im), im: -(ai.re * b.im + ai.im * b.re)))
        }

        public var scale: Double { (a.re * a.re + a.im * a.im).squareRoot() }
    }

    /// The closed-form least-squares similarity from `from` onto `to`:
    /// a = sum(conj(z - mean z) * (w - mean w)) / sum(|z - mean z|^2), b = mean w - a * mean z.
    public static func similarity(from z: [Point], to w: [Point]) -> Similarity {
        precondition(z.count == w.count && !z.isEmpty, "similarity needs matching point lists")
        let n = Double(z.count)
        let zm = (z.map { Double($0.x) }.reduce(0, +) / n, z.map { Double($0.y) }.reduce(0, +) / n)
        let wm = (w.map { Double($0.x) }.reduce(0, +) / n, w.map { Double($0.y) }.reduce(0, +) / n)
        var numRe = 0.0, numIm = 0.0, den = 0.0
        for i in 0..<z.count {
            let zx = Double(z[i].x) - zm.0, zy = Double(z[i].y) - zm.1
            let wx = Double(w[i].x) - wm.0, wy = Double(w[i].y) - wm.1
            // conj(zx + i zy) * (wx + i wy)
            numRe += zx * wx + zy * wy
            numIm += zx * wy - zy * wx
            den += zx * zx + zy * zy
        }
        guard den > 0 else { return Similarity(a: (1, 0), b: (wm.0 - zm.0, wm.1 - zm.1)) }
        let a = (re: numRe / den, im: numIm / den)
        return Similarity(a: a, b: (re: wm.0 - (a.re * zm.0 - a.im * zm.1), im: wm.1 - (a.im * zm.0 + a.re * zm.1)))
    }

    /// The 112x112 aligned crop of a face given its five landmarks in `image`.
    public static func align(_ image: RGBImage, landmarks: [Point]) -> RGBImage {
        precondition(landmarks.count == 5, "alignment needs 5 landmarks")
        return warp(image, transform: similarity(from: landmarks, to: template), width: size, height: size)
    }

    /// Output pixel (u, v) takes the bilinear sample of `image` at transform^-1(u, v), with black
    /// outside the image (as OpenCV's warpAffine with a constant border). A sample whose four
    /// taps are all inside the image (nearly every one) reads them without a check each; the
    /// sums are the same, in the same order, either way.
    public static func warp(_ image: RGBImage, transform: Similarity, width: Int, height: Int) -> RGBImage {
        let inv = transform.inverse
        let W = image.width, H = image.height
        let out = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            out.initialize(repeating: 0)
            count = width * height * 3
            image.pixels.withUnsafeBufferPointer { src in
                let px = src.baseAddress!
                for v in 0..<height {
                    let yv = inv.a.re * Double(v), xv = inv.a.im * Double(v)
                    for u in 0..<width {
                        let x = inv.a.re * Double(u) - xv + inv.b.re
                        let y = inv.a.im * Double(u) + yv + inv.b.im
                        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
                        let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
                        if x0 < -1 || y0 < -1 || x0 >= W || y0 >= H { continue }
                        let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                        var r: Float = 0, g: Float = 0, b: Float = 0
                        if x0 >= 0, y0 >= 0, x0 + 1 < W, y0 + 1 < H {
                            let p = px + (y0 * W + x0) * 3, q = p + W * 3
                            r += Float(p[0]) * w00; g += Float(p[1]) * w00; b += Float(p[2]) * w00
                            r += Float(p[3]) * w10; g += Float(p[4]) * w10; b += Float(p[5]) * w10
                            r += Float(q[0]) * w01; g += Float(q[1]) * w01; b += Float(q[2]) * w01
                            r += Float(q[3]) * w11; g += Float(q[4]) * w11; b += Float(q[5]) * w11
                        } else {
                            @inline(__always) func tap(_ sx: Int, _ sy: Int, _ wt: Float) {
                                guard sx >= 0, sy >= 0, sx < W, sy < H else { return }
                                let p = px + (sy * W + sx) * 3
                                r += Float(p[0]) * wt; g += Float(p[1]) * wt; b += Float(p[2]) * wt
                            }
                            tap(x0, y0, w00); tap(x0 + 1, y0, w10); tap(x0, y0 + 1, w01); tap(x0 + 1, y0 + 1, w11)
                        }
                        let o = (v * width + u) * 3
                        out[o] = UInt8(min(255, r + 0.5))
                        out[o + 1] = UInt8(min(255, g + 0.5))
                        out[o + 2] = UInt8(min(255, b + 0.5))
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
    }

    /// The mirror image (left-right), for the mirrored reference embedding.
    public static func mirrored(_ image: RGBImage) -> RGBImage {
        var out = image.pixels
        let w = image.width
        for y in 0..<image.height {
            for x in 0..<w {
                let s = (y * w + x) * 3, d = (y * w + (w - 1 - x)) * 3
                out[d] = image.pixels[s]; out[d + 1] = image.pixels[s + 1]; out[d + 2] = image.pixels[s + 2]
            }
        }
        return RGBImage(width: w, height: image.height, pixels: out)
    }
}
