extension QuantizedPointwiseConv {
    /// A block of a pixel's values as bytes (`values` in, `u` out) and its facts:
    /// `(d, d * sum (u - zp), d * zp)`.
    static func quantize(block values: UnsafeBufferPointer<Float>, into u: UnsafeMutableBufferPointer<Int32>) -> (Float, Float, Float) {
        var smallest: Float = 0, largest: Float = 0
        for x in values { smallest = min(smallest, x); largest = max(largest, x) }
        let (inverse, step, zero) = quantization(smallest: smallest, largest: largest)
        var offsets: Int32 = 0
        for (k, x) in values.enumerated() {
            u[k] = min(max(Int32((x * inverse).rounded(.toNearestOrEven)) + zero, 0), 255)
            offsets += u[k] - zero
        }
        return (step, step * Float(offsets), step * Float(zero))
    }

    /// The layer one value at a time: what the kernel computes, exactly.
    public func reference(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        var u = [Int32](repeating: 0, count: rowBytes)
        var facts = [(Float, Float, Float)](repeating: (0, 0, 0), count: blocks)
        for p in 0..<pixels {
            let x = input + p * inputStride
            u.withUnsafeMutableBufferPointer { u in
                for b in 0..<blocks {
                    let range = (b * blockSize)..<min(rowBytes, (b + 1) * blockSize)
                    facts[b] = Self.quantize(
                        block: UnsafeBufferPointer(start: x + range.lowerBound, count: range.count),
                        into: UnsafeMutableBufferPointer(rebasing: u[range]))
                }
            }
            let y = output + p * outputStride
            for n in 0..<paddedOut {
                var f: Float = 0
                for b in 0..<blocks {
                    var sum: Int32 = 0
                    for k in (b * blockSize)..<min(rowBytes, (b + 1) * blockSize) { sum &+= u[k] &* Int32(weight(n, k)) }
                    let (step, offsets, zero) = facts[b]
                    f = f.addingProduct(Float(sum) * step, blockScales.data[b * paddedOut + n])
                    f = f.addingProduct(offsets, zeroTerms.data[b * paddedOut + n])
                    f = f.addingProduct(zero, weightSums.data[b * paddedOut + n])
                }
                let v = f + epilogue.bias.data[n]
                y[n] = epilogue.kind == .none || v >= 0 ? v : epilogue.kind == .relu ? 0 : v * epilogue.slopes.data[n]
            }
        }
    }
}
