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

    static func decode(_ bytes: [UInt8]) -> [Float] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Float(Float16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) }
    }
}
