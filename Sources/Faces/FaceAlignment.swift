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
    /// outside the image (as OpenCV's warpAffine with a constant border). Eight pixels of a row
    /// whose taps are all inside the image (nearly every eight) are sampled as vectors, the rest
    /// one by one with a check per tap; the sums are the same, in the same order, either way.
    public static func warp(_ image: RGBImage, transform: Similarity, width: Int, height: Int) -> RGBImage {
        let inv = transform.inverse
        let W = image.width, H = image.height
        let out = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, count in
            out.initialize(repeating: 0)
            count = width * height * 3
            image.pixels.withUnsafeBufferPointer { src in
                let px = src.baseAddress!
                let dst = out.baseAddress!
                for v in 0..<height {
                    let yv = inv.a.re * Double(v), xv = inv.a.im * Double(v)
                    var u = 0
                    while u + 8 <= width {
                        let uu = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7) + Double(u)
                        let x = inv.a.re * uu - xv + inv.b.re
                        let y = inv.a.im * uu + yv + inv.b.im
                        let x0 = x.rounded(.down), y0 = y.rounded(.down)
                        let inside = (x0 .>= 0) .& (y0 .>= 0) .& (x0 + 1 .< Double(W)) .& (y0 + 1 .< Double(H))
                        if all(inside) {
                            let fx = SIMD8<Float>(x - x0), fy = SIMD8<Float>(y - y0)
                            let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                            // Where each lane's top-left tap starts: whole numbers, exact in Double.
                            let at = (y0 * Double(W) + x0) * 3
                            let o = dst + (v * width + u) * 3
                            // The four taps' three channels, lane by lane: 12 vectors of 8.
                            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { t in
                                let t = t.baseAddress!
                                for i in 0..<8 {
                                    let p = px + Int(at[i]), q = p + W * 3
                                    for c in 0..<6 { t[c * 8 + i] = p[c]; t[(6 + c) * 8 + i] = q[c] }
                                }
                                @inline(__always) func tap(_ k: Int) -> SIMD8<Float> {
                                    SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(t + k * 8).loadUnaligned(as: SIMD8<UInt8>.self)))
                                }
                                for c in 0..<3 {
                                    var r = tap(c) * w00
                                    r += tap(3 + c) * w10
                                    r += tap(6 + c) * w01
                                    r += tap(9 + c) * w11
                                    r += 0.5
                                    let clamped = r.replacing(with: 255, where: r .> 255)
                                    for i in 0..<8 { o[3 * i + c] = UInt8(clamped[i]) }
                                }
                            }
                        } else {
                            for k in u..<(u + 8) { pixel(k, v, yv, xv) }
                        }
                        u += 8
                    }
                    while u < width {
                        pixel(u, v, yv, xv)
                        u += 1
                    }
                }

                @inline(__always) func pixel(_ u: Int, _ v: Int, _ yv: Double, _ xv: Double) {
                    let x = inv.a.re * Double(u) - xv + inv.b.re
                    let y = inv.a.im * Double(u) + yv + inv.b.im
                    let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
                    let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
                    if x0 < -1 || y0 < -1 || x0 >= W || y0 >= H { return }
                    let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                    var r: Float = 0, g: Float = 0, b: Float = 0
                    @inline(__always) func tap(_ sx: Int, _ sy: Int, _ wt: Float) {
                        guard sx >= 0, sy >= 0, sx < W, sy < H else { return }
                        let p = px + (sy * W + sx) * 3
                        r += Float(p[0]) * wt; g += Float(p[1]) * wt; b += Float(p[2]) * wt
                    }
                    tap(x0, y0, w00); tap(x0 + 1, y0, w10); tap(x0, y0 + 1, w01); tap(x0 + 1, y0 + 1, w11)
                    let o = (v * width + u) * 3
                    dst[o] = UInt8(min(255, r + 0.5))
                    dst[o + 1] = UInt8(min(255, g + 0.5))
                    dst[o + 2] = UInt8(min(255, b + 0.5))
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
