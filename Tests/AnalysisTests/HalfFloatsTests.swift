import XCTest

@testable import Analysis

/// The stored embeddings' 16-bit floats read back exactly as Swift's own `Float16` reads them.
final class HalfFloatsTests: XCTestCase {
    func testEveryHalfIsReadAsFloat16ReadsIt() {
        let bytes = (0...0xffff).flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        let read = HalfFloats.decode(bytes)
        XCTAssertEqual(read.count, 0x10000)
        for bits in 0...0xffff {
            let want = Float(Float16(bitPattern: UInt16(bits)))
            // What this build reads, and the integer arithmetic of the builds without F16C.
            for (got, how) in [(read[bits], "as read"), (HalfFloats.float(UInt32(bits)), "by integer arithmetic")] {
                if want.isNaN {
                    XCTAssertTrue(got.isNaN, "\(bits) \(how)")
                } else {
                    XCTAssertEqual(got.bitPattern, want.bitPattern, "half bits \(String(bits, radix: 16)) \(how)")
                }
            }
        }
        let values: [Float] = [0.1, -0.25, 3e-6, 0, -0, 1, 65504]
        XCTAssertEqual(HalfFloats.decode(HalfFloats.encode(values)), values.map { Float(Float16($0)) })
    }
}
