extension DepthwiseConv {
    /// Plain scalar reference on unpadded channels-last values.
    public static func reference(
        input: [Float], height: Int, width: Int, channels: Int, weights: [Float],
        bias: [Float]?, stride: Int, activation: Activation = .none
    ) -> [Float] {
        let oh = outputSize(height, stride: stride), ow = outputSize(width, stride: stride)
        var out = [Float](repeating: 0, count: oh * ow * channels)
        for oy in 0..<oh {
            for ox in 0..<ow {
                for c in 0..<channels {
                    var s: Float = bias?[c] ?? 0
                    for dy in 0..<3 {
                        for dx in 0..<3 {
                            let y = oy * stride - 1 + dy, x = ox * stride - 1 + dx
                            if y < 0 || y >= height || x < 0 || x >= width { continue }
                            s += input[(y * width + x) * channels + c] * weights[c * 9 + dy * 3 + dx]
                        }
                    }
                    out[(oy * ow + ox) * channels + c] = activation.apply(s, channel: c)
                }
            }
        }
        return out
    }
}
