/// `out = activation(skip + x)`: a residual connection's sum and the activation after it, in one pass.
/// `skip` may have fewer channels than `x`: the missing ones count as zero (a shortcut whose channels
/// are padded with zeros to the block's width, as after a pooled downsampling).
public struct ResidualAdd: Sendable {
    public let channels: Int
    let epilogue: Epilogue

    public init(channels: Int, activation: Activation = .none) {
        self.channels = channels
        epilogue = Epilogue(bias: nil, activation: activation, channels: channels)
    }

    public func run(skip: Tensor, _ x: Tensor, into output: Tensor) {
        precondition(
            x.channels == channels && output.channels == channels && skip.channels <= channels,
            "ResidualAdd: channels \(skip.channels)+\(x.channels)->\(output.channels), expected \(channels)")
        precondition(
            skip.height == x.height && skip.width == x.width && x.height == output.height && x.width == output.width,
            "ResidualAdd: spatial size mismatch")
        // The skip's padding lanes are zero, so its last vector may be added whole.
        let shared = skip.pixelStride, S = x.pixelStride
        for p in 0..<x.pixelCount {
            let a = skip.data + p * shared, b = x.data + p * S, out = output.data + p * S
            for c in Swift.stride(from: 0, to: shared, by: laneCount) {
                storeVec(epilogue.apply(loadVec(a + c) + loadVec(b + c), channel: c), out + c)
            }
            for c in Swift.stride(from: shared, to: S, by: laneCount) { storeVec(epilogue.apply(loadVec(b + c), channel: c), out + c) }
        }
    }

    /// The same on plain channels-last values: `skip` has `skipChannels` per pixel, `x` `channels`.
    public static func reference(skip: [Float], skipChannels: Int, x: [Float], channels: Int, activation: Activation) -> [Float] {
        var out = x
        for i in 0..<x.count {
            let p = i / channels, c = i % channels
            let s = c < skipChannels ? skip[p * skipChannels + c] : 0
            out[i] = activation.apply(s + x[i], channel: c)
        }
        return out
    }
}
