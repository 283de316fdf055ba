import TensorLite
import XCTest

/// Deterministic random numbers, so a failing shape can be reproduced.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    mutating func floats(_ n: Int, scale: Float = 1) -> [Float] {
        (0..<n).map { _ in Float.random(in: -scale...scale, using: &self) }
    }

    mutating func activation(channels: Int) -> Activation {
        switch Int.random(in: 0..<3, using: &self) {
        case 0: return .none
        case 1: return .relu
        default: return .prelu(floats(channels, scale: 0.5))
        }
    }
}

/// Asserts two results agree to a tolerance relative to their magnitude and returns the max abs error.
@discardableResult
func assertClose(
    _ got: [Float], _ want: [Float], tolerance: Float = 1e-4, _ what: String,
    file: StaticString = #filePath, line: UInt = #line
) -> Float {
    XCTAssertEqual(got.count, want.count, "\(what): count", file: file, line: line)
    var maxErr: Float = 0
    var scale: Float = 1
    for (g, w) in zip(got, want) {
        maxErr = max(maxErr, g.isNaN ? .infinity : abs(g - w))  // max() would skip a NaN
        scale = max(scale, abs(w))
    }
    XCTAssertLessThanOrEqual(maxErr, tolerance * scale, "\(what): max abs error \(maxErr)", file: file, line: line)
    return maxErr
}

extension ByteImage {
    /// The map the network sees, converted one byte at a time: `paddedHeight x paddedWidth x
    /// channels` floats, zero beyond the picture.
    func referenceValues() -> [Float] {
        var values = [Float](repeating: 0, count: paddedHeight * paddedWidth * channels)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels {
                    let byte = data[(y * width + x) * bytesPerPixel + order[c]]
                    values[(y * paddedWidth + x) * channels + c] = (Float(byte) + offset) * scale
                }
            }
        }
        return values
    }
}

/// Every kernel keeps the channel padding lanes at zero: the next kernel reads them as whole vectors.
func assertPaddingZero(_ t: Tensor, file: StaticString = #filePath, line: UInt = #line) {
    for p in 0..<t.pixelCount {
        for c in t.channels..<t.pixelStride where t.data[p * t.pixelStride + c] != 0 {
            XCTFail("padding lane \(c) of pixel \(p) is \(t.data[p * t.pixelStride + c])", file: file, line: line)
            return
        }
    }
}
