extension QuantizedFullyConnected {
    /// Plain scalar reference: dequantize, then multiply.
    public static func reference(
        input: [Float], weights: [Int8], blockScales: [Float], zeroPoints: [Int8]? = nil, blockSize: Int,
        outputScale: [Float]?, bias: [Float]?, inFeatures: Int, outFeatures: Int
    ) -> [Float] {
        let blocks = (inFeatures + blockSize - 1) / blockSize
        return (0..<outFeatures).map { o in
            var s: Float = 0
            for i in 0..<inFeatures {
                let b = o * blocks + i / blockSize
                s += input[i] * (Float(Int32(weights[o * inFeatures + i]) - Int32(zeroPoints?[b] ?? 0)) * blockScales[b])
            }
            return s * (outputScale?[o] ?? 1) + (bias?[o] ?? 0)
        }
    }
}
