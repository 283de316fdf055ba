import Foundation

/// HDR (HLG or PQ, BT.2020) to SDR BT.709 for the film, in our own code: libswscale only
/// converts matrices and bit depths, so an HDR clip shown as if it were SDR looks grey and
/// washed out next to the others.
///
/// The curve, per pixel:
/// 1. decode the transfer to display light in nits: PQ by SMPTE ST 2084's EOTF; HLG by the
///    inverse OETF and the BT.2100 OOTF for a 1000-nit display (system gamma 1.2);
/// 2. convert BT.2020 primaries to BT.709 in linear light (BT.2087's matrix);
/// 3. compress luminance L, in units of SDR reference white (203 nits, BT.2408), only above a
///    knee K = 0.5: L' = L below it, and above it K + (1 - K) r((L - K) / (1 - K)) with extended
///    Reinhard r(t) = t (1 + t / w^2) / (1 + t), w = (W - K) / (1 - K), W the source peak in the
///    same units (1000 nits for HLG, 1000 for PQ unless told otherwise): the shoulder starts with
///    slope 1 and reaches white at the peak. So what an SDR picture holds (up to reference white)
///    keeps its tones and contrast, and looks and sharpness judge an HDR clip as its SDR version
///    (plain Reinhard put reference white at 52 % and cost 13 % of an HDR10 clip's sharpness).
///    The RGB ratios are kept, so hues do not shift, and colours still outside the gamut are
///    desaturated towards their luminance rather than clipped channel by channel;
/// 4. encode with the BT.709 / BT.1886 display gamma (1 / 2.4) to 8 bits.
/// The HDR transfer curves glimt tone-maps.
public enum HDRTransfer: String, Sendable, Codable {
    case hlg, pq
}

public struct ToneMap: Sendable {
    public let transfer: HDRTransfer
    public let peakNits: Float
    public static let referenceWhiteNits: Float = 203

    /// Where the shoulder starts, in units of reference white.
    public static let knee: Float = 0.5

    private let table: [UInt8]
    /// Decoding each 16-bit code is the other costly part: a table per 12-bit step of the code
    /// (10-bit sources use every 4th step).
    private let decode: [Float]

    public init(transfer: HDRTransfer, peakNits: Float = 1000) {
        self.transfer = transfer
        self.peakNits = peakNits
        // The display gamma is the costly part: a table over [0, 1] in 4096 steps.
        table = (0..<4097).map { i in UInt8(min(255, max(0, (pow(Float(i) / 4096, 1 / 2.4) * 255).rounded()))) }
        decode = Self.decodeTable(transfer, peakNits: peakNits)
    }

    /// Luminance (units of reference white) as shown: unchanged up to the knee, then the shoulder.
    @inline(__always) func compress(_ y: Float, widthSquaredInverse invW2: Float) -> Float {
        guard y > Self.knee else { return y }
        let k = Self.knee
        let t = (y - k) / (1 - k)
        return k + (1 - k) * t * (1 + t * invW2) / (1 + t)
    }

    public func apply(_ image: RGB16Image) -> RGBImage {
        let n = image.width * image.height
        var out = [UInt8](repeating: 0, count: n * 3)
        // The shoulder's end in its own units; a peak at or under the knee needs none.
        let w = max((peakNits / Self.referenceWhiteNits - Self.knee) / (1 - Self.knee), 1e-3)
        let invW2 = 1 / (w * w)
        image.red.withUnsafeBufferPointer { R in
            image.green.withUnsafeBufferPointer { G in
                image.blue.withUnsafeBufferPointer { B in
                    decode.withUnsafeBufferPointer { D in
                        table.withUnsafeBufferPointer { table in
                            out.withUnsafeMutableBufferPointer { out in
                                for i in 0..<n {
                                    // Linear BT.2020, in units of reference white.
                                    let r20 = D[Int(R[i]) >> 4], g20 = D[Int(G[i]) >> 4], b20 = D[Int(B[i]) >> 4]
                                    var r = 1.6605 * r20 - 0.5876 * g20 - 0.0728 * b20
                                    var g = -0.1246 * r20 + 1.1329 * g20 - 0.0083 * b20
                                    var b = -0.0182 * r20 - 0.1006 * g20 + 1.1187 * b20
                                    let y = max(0, 0.2126 * r + 0.7152 * g + 0.0722 * b)
                                    let mapped = compress(y, widthSquaredInverse: invW2)
                                    let k = y > 0 ? mapped / y : 0
                                    r *= k; g *= k; b *= k
                                    // Out-of-gamut (negative or above white) after mapping: pull towards grey.
                                    let lo = min(r, min(g, b)), hi = max(r, max(g, b))
                                    if lo < 0 || hi > 1 {
                                        var t: Float = 1
                                        if lo < 0 { t = min(t, mapped / max(mapped - lo, 1e-6)) }
                                        if hi > 1 { t = min(t, (1 - mapped) / max(hi - mapped, 1e-6)) }
                                        t = max(0, t)
                                        r = mapped + (r - mapped) * t; g = mapped + (g - mapped) * t; b = mapped + (b - mapped) * t
                                    }
                                    out[3 * i] = table[Int(min(1, max(0, r)) * 4096)]
                                    out[3 * i + 1] = table[Int(min(1, max(0, g)) * 4096)]
                                    out[3 * i + 2] = table[Int(min(1, max(0, b)) * 4096)]
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: image.width, height: image.height, pixels: out)
    }

    /// Linear light (units of reference white) for each 12-bit step of the code value. HLG's
    /// OOTF really depends on the pixel's luminance; applying its gamma per channel is the usual
    /// close approximation for a table.
    private static func decodeTable(_ transfer: HDRTransfer, peakNits: Float) -> [Float] {
        (0..<4096).map { i in
            let e = Float(i) / 4095
            switch transfer {
            case .pq:
                let m1: Float = 0.1593017578125, m2: Float = 78.84375
                let c1: Float = 0.8359375, c2: Float = 18.8515625, c3: Float = 18.6875
                let p = pow(e, 1 / m2)
                let nits = 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
                return min(nits, peakNits) / referenceWhiteNits
            case .hlg:
                let a: Float = 0.17883277, b: Float = 0.28466892, c: Float = 0.55991073
                let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
                let nits = peakNits * pow(scene, 1.2)
                return nits / referenceWhiteNits
            }
        }
    }
}
