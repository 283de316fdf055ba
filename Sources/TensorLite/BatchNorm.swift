/// Inference-time BatchNormalization as the per-channel affine map y = x * scale + shift, so it
/// can be folded into the convolution before it (one pass less over every feature map).
public struct BatchNorm: Sendable {
    public let scale: [Float]
    public let shift: [Float]

    public init(gamma: [Float], beta: [Float], mean: [Float], variance: [Float], epsilon: Float) {
        precondition(gamma.count == beta.count && beta.count == mean.count && mean.count == variance.count, "BatchNorm: parameter counts differ")
        var scale = [Float](repeating: 0, count: gamma.count)
        var shift = scale
        for c in 0..<gamma.count {
            scale[c] = gamma[c] / (variance[c] + epsilon).squareRoot()
            shift[c] = beta[c] - mean[c] * scale[c]
        }
        self.scale = scale
        self.shift = shift
    }

    public var channels: Int { scale.count }

    /// Folds this BatchNorm into the convolution that feeds it: weights are `[out][...]`, with
    /// `weights.count / channels` values per output channel.
    public func fold(weights: [Float], bias: [Float]?) -> (weights: [Float], bias: [Float]) {
        precondition(weights.count % channels == 0, "BatchNorm.fold: \(weights.count) weights for \(channels) channels")
        let per = weights.count / channels
        var w = weights
        var b = [Float](repeating: 0, count: channels)
        for c in 0..<channels {
            for i in 0..<per { w[c * per + i] *= scale[c] }
            b[c] = (bias?[c] ?? 0) * scale[c] + shift[c]
        }
        return (w, b)
    }

    /// Scalar reference of the unfolded operation, channels-last.
    public func reference(_ x: [Float]) -> [Float] {
        x.enumerated().map { i, v in v * scale[i % channels] + shift[i % channels] }
    }
}
