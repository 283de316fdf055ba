extension PointwiseConv {
    /// Plain scalar reference on unpadded channels-last values.
    public static func reference(
        input: [Float], pixels: Int, weights: [Float], bias: [Float]?,
        inChannels: Int, outChannels: Int, activation: Activation = .none
    ) -> [Float] {
        var out = [Float](repeating: 0, count: pixels * outChannels)
        for p in 0..<pixels {
            for n in 0..<outChannels {
                var s: Float = bias?[n] ?? 0
                for k in 0..<inChannels { s += input[p * inChannels + k] * weights[n * inChannels + k] }
                out[p * outChannels + n] = activation.apply(s, channel: n)
            }
        }
        return out
    }
}
