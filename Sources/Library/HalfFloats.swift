/// Embeddings kept as 16-bit floats, little-endian: half the bytes of Float32, and cosines move
/// by about 1e-4, far below anything the identity thresholds can see.
enum HalfFloats {
    static func encode(_ values: [Float]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(values.count * 2)
        for v in values {
            let bits = Float16(v).bitPattern
            out.append(UInt8(bits & 0xff))
            out.append(UInt8(bits >> 8))
        }
        return out
    }

    /// Every stored face's embedding passes through here each time a library is judged, so the
    /// conversion is integer arithmetic the compiler vectorises: `Float(Float16)` is a library
    /// call per number where the target has no F16C (the baseline x86-64 build), and was an
    /// eighth of a decade's `days`.
    static func decode(_ bytes: [UInt8]) -> [Float] {
        var floats: [Float] = []
        _ = bytes.withUnsafeBytes { append($0, to: &floats) }
        return floats
    }

    /// Appends the floats of `b` (bytes in place: a stored blob as SQLite holds it) to `floats`;
    /// returns where they are.
    static func append(_ b: UnsafeRawBufferPointer, to floats: inout [Float]) -> Range<Int> {
        let start = floats.count, n = b.count / 2
        withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { out in
            let bytes = b.assumingMemoryBound(to: UInt8.self)
            for i in 0..<n { out[i] = float(UInt32(bytes[2 * i]) | UInt32(bytes[2 * i + 1]) << 8) }
            floats.append(contentsOf: out)
        }
        return start..<(start + n)
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
