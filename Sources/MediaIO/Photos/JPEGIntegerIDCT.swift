/// The 8x8 inverse DCT of libjpeg's default (JDCT_ISLOW): Loeffler, Ligtenberg and Moschytz's
/// factorisation in 13-bit fixed point, columns first (keeping 2 extra bits between the passes),
/// then rows, each result rounded by half. FFmpeg's port of the same IDCT runs rows first, which
/// rounds differently by a level here and there; that level is enough to move a small face's
/// landmarks (one Solvay 1927 face: cosine 0.969 to OpenCV's embedding), so photos use this one.
enum JPEGIntegerIDCT {
    private static let constBits = 13, pass1Bits = 2
    // Each constant is round(x * 2^13).
    private static let c0_298631336 = 2446, c0_390180644 = 3196, c0_541196100 = 4433
    private static let c0_765366865 = 6270, c0_899976223 = 7373, c1_175875602 = 9633
    private static let c1_501321110 = 12299, c1_847759065 = 15137, c1_961570560 = 16069
    private static let c2_053119869 = 16819, c2_562915447 = 20995, c3_072711026 = 25172

    /// `coefficients` (64, natural order, already multiplied by the quantisation table) to 8x8
    /// samples at `out`, rows `stride` apart. `workspace` holds 72 values.
    static func transform(
        _ coefficients: UnsafePointer<Int>, workspace: UnsafeMutablePointer<Int>,
        into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let v = workspace + 64
        // Pass 1: columns, into the workspace with pass1Bits of extra precision.
        for c in 0..<8 {
            let p = coefficients + c
            if p[8] == 0 && p[16] == 0 && p[24] == 0 && p[32] == 0 && p[40] == 0 && p[48] == 0 && p[56] == 0 {
                // The same values the full pass gives, sooner.
                let dc = p[0] << pass1Bits
                for r in 0..<8 { workspace[r * 8 + c] = dc }
                continue
            }
            butterfly(p[0], p[8], p[16], p[24], p[32], p[40], p[48], p[56], into: v)
            for r in 0..<8 { workspace[r * 8 + c] = descale(v[r], constBits - pass1Bits) }
        }
        // Pass 2: rows, back to samples centred on 128.
        for r in 0..<8 {
            let w = workspace + r * 8
            let row = out + r * stride
            butterfly(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], into: v)
            for c in 0..<8 { row[c] = UInt8(min(255, max(0, descale(v[c], constBits + pass1Bits + 3) + 128))) }
        }
    }

    @inline(__always) private static func descale(_ x: Int, _ n: Int) -> Int { (x + (1 << (n - 1))) >> n }

    /// One 8-point pass before its rounding: the even part from inputs 0, 2, 4, 6, the odd part
    /// from 1, 3, 5, 7, recombined into outputs 0...7.
    @inline(__always)
    private static func butterfly(
        _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, _ i4: Int, _ i5: Int, _ i6: Int, _ i7: Int,
        into out: UnsafeMutablePointer<Int>
    ) {
        let z1 = (i2 + i6) * c0_541196100
        let e2 = z1 - i6 * c1_847759065
        let e3 = z1 + i2 * c0_765366865
        let e0 = (i0 + i4) << constBits
        let e1 = (i0 - i4) << constBits
        let t10 = e0 + e3, t13 = e0 - e3, t11 = e1 + e2, t12 = e1 - e2

        let y5 = (i7 + i3 + i5 + i1) * c1_175875602
        let y1 = -(i7 + i1) * c0_899976223
        let y2 = -(i5 + i3) * c2_562915447
        let y3 = -(i7 + i3) * c1_961570560 + y5
        let y4 = -(i5 + i1) * c0_390180644 + y5
        let o0 = i7 * c0_298631336 + y1 + y3
        let o1 = i5 * c2_053119869 + y2 + y4
        let o2 = i3 * c3_072711026 + y2 + y3
        let o3 = i1 * c1_501321110 + y1 + y4
        out[0] = t10 + o3; out[7] = t10 - o3
        out[1] = t11 + o2; out[6] = t11 - o2
        out[2] = t12 + o1; out[5] = t12 - o1
        out[3] = t13 + o0; out[4] = t13 - o0
    }
}
