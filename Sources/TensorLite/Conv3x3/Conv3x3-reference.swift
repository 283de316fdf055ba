extension Conv3x3 {
    /// Plain scalar reference on unpadded channels-last values.
    public static func reference(
        input: [Float], height: Int, width: Int, inChannels: Int, weights: [Float], bias: [Float]?,
        outChannels: Int, stride: Int, activation: Activation = .none
    ) -> [Float] {
        let oh = (height - 1) / stride + 1, ow = (width - 1) / stride + 1
        var out = [Float](repeating: 0, count: oh * ow * outChannels)
        for oy in 0..<oh {
            for ox in 0..<ow {
                for n in 0..<outChannels {
                    var s: Float = bias?[n] ?? 0
                    for ci in 0..<inChannels {
                        for dy in 0..<3 {
                            for dx in 0..<3 {
                                let y = oy * stride - 1 + dy, x = ox * stride - 1 + dx
                                if y < 0 || y >= height || x < 0 || x >= width { continue }
                                s += input[(y * width + x) * inChannels + ci] * weights[((n * inChannels + ci) * 3 + dy) * 3 + dx]
                            }
                        }
                    }
                    out[(oy * ow + ox) * outChannels + n] = activation.apply(s, channel: n)
                }
            }
        }
        return out
    }
}
