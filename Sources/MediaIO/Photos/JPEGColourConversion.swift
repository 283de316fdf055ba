import Imaging

/// A JPEG's decoded YCbCr planes to RGB the way libjpeg(-turbo) does by default, so that a
/// photo's pixels are OpenCV's `imread` pixels (up to the IDCT's rounding): the face models were
/// made and checked on those, and small faces move with a level or two of difference.
///
/// libjpeg's defaults, written from their description:
/// - "fancy" chroma upsampling, a triangle filter: each output sample is 3/4 of the nearer and
///   1/4 of the farther input sample, per direction. 2x1 rounds with +1 and +2 on alternate
///   outputs (then >> 2); 2x2 sums columns first (3 near + 1 far row) and rounds with +8 and +7
///   (then >> 4); 1x2 rounds with +1 on the upper and +2 on the lower row. Edge samples are
///   repeated (the first and last outputs of a row are the edge sample itself for 2x1);
/// - any other factor (4x1) repeats each chroma sample;
/// - JFIF's full-range BT.601 matrix in 16-bit fixed point, each term rounded by half, from
///   tables over the 256 chroma values; results clamped to 0...255.
public enum JPEGColourConversion {
    /// One 8-bit plane: `rows` rows of at least `width` samples, `stride` bytes apart.
    public struct Plane {
        public let base: UnsafePointer<UInt8>
        public let stride: Int
        public let width: Int
        public let rows: Int

        public init(base: UnsafePointer<UInt8>, stride: Int, width: Int, rows: Int) {
            self.base = base
            self.stride = stride
            self.width = width
            self.rows = rows
        }
    }

    /// How many luma samples share one chroma sample, across and down.
    public struct Subsampling: Equatable, Sendable {
        public let across: Int
        public let down: Int
        public init(across: Int, down: Int) {
            self.across = across
            self.down = down
        }
        /// The ones libjpeg handles as this type does (others: nil).
        public static let supported = [(1, 1), (2, 1), (2, 2), (1, 2), (4, 1)].map { Subsampling(across: $0.0, down: $0.1) }
    }

    /// `luma` (width x height) with `blue` and `red` (Cb, Cr) subsampled by `subsampling`, as RGB.
    /// Returns nil when the planes are smaller than the subsampling needs or it is not supported.
    public static func rgb(width: Int, height: Int, luma: Plane, blue: Plane, red: Plane, subsampling: Subsampling) -> RGBImage? {
        guard width > 0, height > 0, Subsampling.supported.contains(subsampling),
            luma.width >= width, luma.rows >= height
        else { return nil }
        let chromaWidth = (width + subsampling.across - 1) / subsampling.across
        let chromaRows = (height + subsampling.down - 1) / subsampling.down
        for plane in [blue, red] where plane.width < chromaWidth || plane.rows < chromaRows { return nil }

        // Upsampled rows are a little wider than the picture when its width is odd.
        let upWidth = chromaWidth * subsampling.across
        var cb = [Int32](repeating: 0, count: upWidth), cr = cb
        var blueSums = [Int32](repeating: 0, count: chromaWidth), redSums = blueSums
        let tables = Tables.shared
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                upsampleRow(y, blue, chromaWidth, chromaRows, subsampling, &blueSums, &cb)
                upsampleRow(y, red, chromaWidth, chromaRows, subsampling, &redSums, &cr)
                let lumaRow = luma.base + y * luma.stride
                var o = y * width * 3
                for x in 0..<width {
                    let l = Int32(lumaRow[x]), b = Int(cb[x]), r = Int(cr[x])
                    out[o] = clamp(l + tables.redFromCr[r])
                    out[o + 1] = clamp(l + ((tables.greenFromCb[b] + tables.greenFromCr[r]) >> 16))
                    out[o + 2] = clamp(l + tables.blueFromCb[b])
                    o += 3
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @inline(__always) private static func clamp(_ v: Int32) -> UInt8 { UInt8(min(255, max(0, v))) }

    /// Chroma for luma row `y`, one value per luma column, into `out`.
    private static func upsampleRow(
        _ y: Int, _ plane: Plane, _ count: Int, _ rows: Int, _ s: Subsampling,
        _ sums: inout [Int32], _ out: inout [Int32]
    ) {
        let row = y / s.down
        let near = plane.base + row * plane.stride
        if s.down == 2 {
            // The farther row: above for the upper output row, below for the lower; the edge repeats.
            let upper = y % 2 == 0
            let far = plane.base + (upper ? max(row - 1, 0) : min(row + 1, rows - 1)) * plane.stride
            for x in 0..<count { sums[x] = 3 * Int32(near[x]) + Int32(far[x]) }
            if s.across == 1 {
                let bias: Int32 = upper ? 1 : 2
                for x in 0..<count { out[x] = (sums[x] + bias) >> 2 }
                return
            }
            // 2x2: across the column sums, in sixteenths.
            if count == 1 {
                out[0] = (4 * sums[0] + 8) >> 4
                out[1] = (4 * sums[0] + 7) >> 4
                return
            }
            out[0] = (4 * sums[0] + 8) >> 4
            for x in 1..<count { out[2 * x] = (3 * sums[x] + sums[x - 1] + 8) >> 4 }
            for x in 0..<(count - 1) { out[2 * x + 1] = (3 * sums[x] + sums[x + 1] + 7) >> 4 }
            out[2 * count - 1] = (4 * sums[count - 1] + 7) >> 4
            return
        }
        switch s.across {
        case 1:
            for x in 0..<count { out[x] = Int32(near[x]) }
        case 2:
            out[0] = Int32(near[0])
            out[2 * count - 1] = Int32(near[count - 1])
            guard count > 1 else { return }
            for x in 1..<count { out[2 * x] = (3 * Int32(near[x]) + Int32(near[x - 1]) + 1) >> 2 }
            for x in 0..<(count - 1) { out[2 * x + 1] = (3 * Int32(near[x]) + Int32(near[x + 1]) + 2) >> 2 }
        default:
            for x in 0..<(count * s.across) { out[x] = Int32(near[x / s.across]) }
        }
    }

    /// JFIF's YCbCr -> RGB in 16-bit fixed point: R = Y + 1.402 Cr', G = Y - 0.34414 Cb' -
    /// 0.71414 Cr', B = Y + 1.772 Cb', with Cb' = Cb - 128 and Cr' = Cr - 128; the red and blue
    /// terms rounded on their own, green's two terms summed before one rounding.
    private struct Tables {
        static let shared = Tables()
        let redFromCr: [Int32], blueFromCb: [Int32], greenFromCb: [Int32], greenFromCr: [Int32]

        private init() {
            let scale = 16, half: Int32 = 1 << 15
            func fixed(_ x: Double) -> Int32 { Int32(x * Double(1 << scale) + 0.5) }
            let centred = (0..<256).map { Int32($0) - 128 }
            redFromCr = centred.map { (fixed(1.40200) * $0 + half) >> scale }
            blueFromCb = centred.map { (fixed(1.77200) * $0 + half) >> scale }
            greenFromCr = centred.map { -fixed(0.71414) * $0 }
            greenFromCb = centred.map { -fixed(0.34414) * $0 + half }
        }
    }
}
