/// Embeddings kept as 16-bit floats, little-endian: half the bytes of Float32, and cosines move
/// by about 1e-4, far below anything the identity thresholds can see. The library's store keeps
/// them so; here beside `Embedding`, which reads them back (`init(validatingHalves:)`).
public enum HalfFloats {
    public static func encode(_ values: [Float]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(values.count * 2)
        for v in values {
            let bits = Float16(v).bitPattern
            out.append(UInt8(bits & 0xff))
            out.append(UInt8(bits >> 8))
        }
        return out
    }

    /// The floats of `bytes` (half the count).
    public static func decode(_ bytes: [UInt8]) -> [Float] {
        bytes.withUnsafeBytes { b in
            [Float](unsafeUninitializedCapacity: b.count / 2) { out, n in
                decode(b, into: out)
                n = b.count / 2
            }
        }
    }

    /// Every stored face's embedding passes through here each time a library is judged (2.6
    /// million in a decade). With F16C (the AVX2 and AVX-512 builds) a conversion instruction
    /// takes eight or sixteen at once; without it `Float(Float16)` is a library call per number,
    /// which was an eighth of a decade's `days`, so the baseline x86-64 build does integer
    /// arithmetic the compiler vectorises.
    /// Each half is read as one 16-bit number (two bytes put together did not vectorise).
    static func decode(_ b: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<(b.count / 2) {
            let h = UInt16(littleEndian: b.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))
            #if GLIMT_AVX2 || GLIMT_AVX512
            out[i] = Float(Float16(bitPattern: h))
            #else
            out[i] = float(UInt32(h))
            #endif
        }
    }

    /// The Float of a half's bits (in the low 16): exact for every half, NaNs kept NaN.
    @inline(__always)
    static func float(_ h: UInt32) -> Float {
        let sign = (h & 0x8000) << 16
        let shifted = (h & 0x7fff) << 13
        let exponent = shifted & (0x7c00 << 13)
        var o = shifted &+ ((127 - 15) << 23)
        if exponent == 0x7c00 << 13 {
            // Infinity or NaN: the exponent all ones in single precision too.
            o &+= (128 - 16) << 23
        } else if exponent == 0 {
            // Zero or subnormal: let the FPU normalise it (2^-14 times the mantissa).
            o = (Float(bitPattern: o &+ (1 << 23)) - Float(bitPattern: 113 << 23)).bitPattern
        }
        return Float(bitPattern: o | sign)
    }
}
