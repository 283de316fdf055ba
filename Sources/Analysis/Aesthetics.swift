import Foundation
import Imaging

/// A deterministic no-reference "how good does this frame look" score in [0, 1], standing in for
/// Apple's image aesthetics request, plus the rejection of utility frames.
///
/// value = 0.35 * exposure + 0.25 * contrast + 0.20 * colourfulness + 0.20 * cleanliness, where
/// - exposure: 1 while the mean luma is within 80-160, falling linearly to 0 at 0 and 240, times
///   (1 - 2 x the fraction of clipped pixels: luma under 8 or over 247);
/// - contrast: standard deviation of luma / 55, capped at 1;
/// - colourfulness: Hasler and Suesstrunk's M = sqrt(var(rg) + var(yb)) + 0.3 sqrt(mean(rg)^2 +
///   mean(yb)^2), with rg = R - G and yb = (R + G)/2 - B, divided by 60 and capped at 1;
/// - cleanliness: 1 - (sigma - 2) / 10 clamped to [0, 1], sigma being Immerkaer's fast estimate of
///   the noise standard deviation (in grey levels) of the full analysis frame.
///
/// Utility frames get value 0 and a reason: `dark` (mean luma under 25 and 98 % of the picture
/// under 70: black frames, a lens in a pocket; a dark stage with a lit performer is not dark), `flat` (luma deviation under 6: a covered lens, a wall), `screen` (over 70 % of the
/// horizontally adjacent pixels that are not clipped to black or white exactly equal in all
/// channels, and over 0.5 % of them a sharp step of 60+ levels: screen recordings and
/// screenshots, flat colours with text; camera pictures always carry sensor noise), and `blur` (sharpness
/// under 0.05: heavy motion blur; the sharpness is the frame score's own part).
public struct Aesthetics: Codable, Equatable, Sendable {
    public var value: Float
    public var exposure: Float
    public var contrast: Float
    public var colourfulness: Float
    public var cleanliness: Float
    /// Why the frame is a utility frame, or nil for an ordinary picture.
    public var rejected: String?

    public init(value: Float, exposure: Float, contrast: Float, colourfulness: Float, cleanliness: Float, rejected: String?) {
        self.value = value
        self.exposure = exposure
        self.contrast = contrast
        self.colourfulness = colourfulness
        self.cleanliness = cleanliness
        self.rejected = rejected
    }

    /// The statistics are taken on a grid of the frame's pixels about this many across: tone and
    /// colour statistics need no more, and a grid costs nothing to make where a resized copy cost
    /// a quarter of the scoring. Noise and screens are measured on the frame itself.
    static let statisticsSide = 320

    public static func measure(_ frame: RGBImage, sharpness: Double) -> Aesthetics {
        let step = max(1, max(frame.width, frame.height) / statisticsSide)
        let xs = stride(from: step / 2, to: frame.width, by: step), ys = stride(from: step / 2, to: frame.height, by: step)
        let n = Double(xs.underestimatedCount * ys.underestimatedCount)
        // Integer sums (luma in thousandths: 299 r + 587 g + 114 b; yellow-blue doubled), exact
        // and several times faster than floating point per pixel.
        var lumaSum = 0, lumaSquares = 0, clippedCount = 0
        var rgSum = 0, rgSquares = 0, yb2Sum = 0, yb2Squares = 0
        // Four histograms taken in turn: neighbours mostly fall in the same bin, and one
        // histogram would make each count wait for the one before.
        var histograms = [Int](repeating: 0, count: 4 * 256)
        frame.pixels.withUnsafeBufferPointer { p in
            histograms.withUnsafeMutableBufferPointer { bins in
                for y in ys {
                    var i = 3 * (y * frame.width + step / 2)
                    var lane = 0
                    for _ in xs {
                        let r = Int(p[i]), g = Int(p[i + 1]), b = Int(p[i + 2])
                        let luma = 299 * r + 587 * g + 114 * b
                        lumaSum &+= luma
                        lumaSquares &+= luma * luma
                        clippedCount &+= (luma < 8_000 || luma > 247_000) ? 1 : 0
                        bins[lane + luma / 1000] &+= 1
                        lane = (lane + 256) & 1023
                        let rg = r - g, yb2 = r + g - 2 * b
                        rgSum &+= rg; rgSquares &+= rg * rg
                        yb2Sum &+= yb2; yb2Squares &+= yb2 * yb2
                        i += 3 * step
                    }
                }
            }
        }
        var histogram = [Int](repeating: 0, count: 256)
        for lane in 0..<4 { for level in 0..<256 { histogram[level] += histograms[lane * 256 + level] } }
        let sumY: Double = Double(lumaSum) / 1000, sumY2: Double = Double(lumaSquares) / 1e6, clipped = Double(clippedCount)
        let sumRG = Double(rgSum), sumRG2 = Double(rgSquares), sumYB: Double = Double(yb2Sum) / 2, sumYB2: Double = Double(yb2Squares) / 4
        let mean = sumY / n
        let sd = max(0, sumY2 / n - mean * mean).squareRoot()
        let plateau = mean < 80 ? mean / 80 : (mean > 160 ? max(0, (240 - mean) / 80) : 1)
        let exposure = Float(max(0, plateau * (1 - min(1, 2 * clipped / n))))
        let contrast = Float(min(1, sd / 55))
        let mRG = sumRG / n, mYB = sumYB / n
        let sRG = max(0, sumRG2 / n - mRG * mRG), sYB = max(0, sumYB2 / n - mYB * mYB)
        let m = (sRG + sYB).squareRoot() + 0.3 * (mRG * mRG + mYB * mYB).squareRoot()
        let colour = Float(min(1, m / 60))
        let sigma = noiseSigma(frame)
        let clean = Float(min(1, max(0, 1 - (sigma - 2) / 10)))

        // The level 98 % of the picture stays under: a dark stage with a lit performer is a
        // picture; a frame with nothing bright in it is not.
        var brightLevel = 255, seen = 0
        for (level, count) in histogram.enumerated() {
            seen += count
            if Double(seen) >= 0.98 * n { brightLevel = level; break }
        }
        var rejected: String?
        if mean < 25 && brightLevel < 70 {
            rejected = "dark"
        } else if sd < 6 {
            rejected = "flat"
        } else if screenStatistics(frame, rowStep: 8).equal > 0.55, case let (equal, edges) = screenStatistics(frame), equal > 0.7, edges > 0.005 {
            // (A look at every 8th row first: a camera picture is nowhere near, and is spared the rest.)
            rejected = "screen"
        } else if sharpness < 0.05 {
            rejected = "blur"
        }
        let value = 0.35 * exposure + 0.25 * contrast + 0.20 * colour + 0.20 * clean
        return Aesthetics(
            value: rejected == nil ? value : 0, exposure: exposure, contrast: contrast, colourfulness: colour,
            cleanliness: clean, rejected: rejected)
    }

    /// Immerkaer (1996): sigma = sqrt(pi/2) / (6 (W-2)(H-2)) * sum |I * N| with the 3x3 mask
    /// N = [1 -2 1; -2 4 -2; 1 -2 1], which cancels smooth image structure and keeps noise.
    static func noiseSigma(_ image: RGBImage) -> Double {
        let w = image.width, h = image.height
        guard w >= 3, h >= 3 else { return 0 }
        let g = Grey.luma(image)
        var total = 0.0
        g.withUnsafeBufferPointer { p in
            let base = p.baseAddress!
            @inline(__always) func load(_ i: Int) -> SIMD8<Float> {
                UnsafeRawPointer(base + i).loadUnaligned(as: SIMD8<Float>.self)
            }
            for y in 1..<(h - 1) {
                // Eight pixels at a time, then the rest one by one.
                var lanes = SIMD8<Float>()
                var x = 1
                while x + 8 <= w - 1 {
                    let i = y * w + x
                    // The mask's rows: [1 -2 1], [-2 4 -2], [1 -2 1].
                    let two: SIMD8<Float> = .init(repeating: 2)
                    let outer = load(i - w - 1) + load(i - w + 1) + load(i + w - 1) + load(i + w + 1)
                    let cross = load(i - w) + load(i + w) + load(i - 1) + load(i + 1)
                    let centre = load(i)
                    let v = outer - two * cross + two * two * centre
                    lanes += v.replacing(with: -v, where: v .< 0)
                    x += 8
                }
                var rowSum = lanes.sum()
                while x < w - 1 {
                    let i = y * w + x
                    let v =
                        p[i - w - 1] - 2 * p[i - w] + p[i - w + 1]
                        - 2 * p[i - 1] + 4 * p[i] - 2 * p[i + 1]
                        + p[i + w - 1] - 2 * p[i + w] + p[i + w + 1]
                    rowSum += abs(v)
                    x += 1
                }
                total += Double(rowSum)
            }
        }
        return (Double.pi / 2).squareRoot() / (6 * Double(w - 2) * Double(h - 2)) * total
    }

    /// Over horizontally adjacent pixel pairs: the share identical in all three channels (among
    /// pairs not clipped to black or white: an over-exposed sky is flat too, but it is not a
    /// screen), and the share with a luma step over 60 levels (text and UI edges; a dark,
    /// heavily compressed stage is flat but has almost none).
    /// Every other row by default: the shares are the same to a fraction of a percent, at half the cost.
    static func screenStatistics(_ image: RGBImage, rowStep: Int = 2) -> (equal: Double, edges: Double) {
        guard image.width >= 2 else { return (0, 0) }
        var equal = 0, counted = 0, edges = 0
        let rows = stride(from: 0, to: image.height, by: rowStep)
        image.pixels.withUnsafeBufferPointer { p in
            for y in rows {
                var i = y * image.width * 3
                // Each pixel's luma is the right-hand one of its pair, then the left-hand one of the next.
                var y0 = 299 * Int(p[i]) + 587 * Int(p[i + 1]) + 114 * Int(p[i + 2])
                for _ in 0..<(image.width - 1) {
                    let lo = min(p[i], p[i + 1], p[i + 2]), hi = max(p[i], p[i + 1], p[i + 2])
                    // Branch-free counts: the pairs are nearly random, so branches mispredict.
                    let inRange = hi > 5 && lo < 250
                    let same = p[i] == p[i + 3] && p[i + 1] == p[i + 4] && p[i + 2] == p[i + 5]
                    counted &+= inRange ? 1 : 0
                    equal &+= inRange && same ? 1 : 0
                    let y1 = 299 * Int(p[i + 3]) + 587 * Int(p[i + 4]) + 114 * Int(p[i + 5])
                    edges &+= abs(y0 - y1) > 60_000 ? 1 : 0
                    y0 = y1
                    i += 3
                }
            }
        }
        return (counted > 0 ? Double(equal) / Double(counted) : 0, Double(edges) / Double((image.width - 1) * rows.underestimatedCount))
    }
}
