import XCTest

@testable import Library

/// The stored embeddings' 16-bit floats read back exactly as Swift's own `Float16` reads them.
final class HalfFloatsTests: XCTestCase {
    func testEveryHalfIsReadAsFloat16ReadsIt() {
        let bytes = (0...0xffff).flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        let read = HalfFloats.decode(bytes)
        XCTAssertEqual(read.count, 0x10000)
        for bits in 0...0xffff {
            let want = Float(Float16(bitPattern: UInt16(bits)))
            if want.isNaN {
                XCTAssertTrue(read[bits].isNaN, "\(bits)")
            } else {
                XCTAssertEqual(read[bits].bitPattern, want.bitPattern, "half bits \(String(bits, radix: 16))")
            }
        }
        let values: [Float] = [0.1, -0.25, 3e-6, 0, -0, 1, 65504]
        XCTAssertEqual(HalfFloats.decode(HalfFloats.encode(values)), values.map { Float(Float16($0)) })
    }
}
