/// Fully connected layer: y[o] = act(sum_i w[o][i] * x[i] + b[o]).
///
/// For SFace this is 128 x 50176 weights (25.7 MB as float), read once per face, so it is bound by
/// memory bandwidth, not arithmetic: four output rows are streamed at once, each with its own
/// accumulator, over a row padded to whole vectors.
public struct FullyConnected: Sendable {
    public let inFeatures: Int
    public let outFeatures: Int
    let rowStride: Int
    let weights: AlignedFloats
    let bias: [Float]

    /// `weights` is `[out][in]`.
    public init(weights w: [Float], bias: [Float]?, inFeatures: Int, outFeatures: Int) {
        precondition(w.count == inFeatures * outFeatures, "FullyConnected: \(w.count) weights for \(outFeatures)x\(inFeatures)")
        self.inFeatures = inFeatures
        self.outFeatures = outFeatures
        rowStride = roundUp(inFeatures, to: laneCount)
        weights = AlignedFloats(count: rowStride * outFeatures)
        for o in 0..<outFeatures {
            for i in 0..<inFeatures { weights.data[o * rowStride + i] = w[o * inFeatures + i] }
        }
        self.bias = bias ?? [Float](repeating: 0, count: outFeatures)
        precondition(self.bias.count == outFeatures, "FullyConnected: bias count")
    }

    /// `x` holds `inFeatures` floats followed by zeros up to a multiple of 16 (read, not used).
    public func run(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>) {
        let vecs = rowStride / laneCount
        var o = 0
        while o + 4 <= outFeatures {
            var a0 = Vec(), a1 = Vec(), a2 = Vec(), a3 = Vec()
            let w0 = weights.data + o * rowStride
            let w1 = w0 + rowStride, w2 = w1 + rowStride, w3 = w2 + rowStride
            for v in 0..<vecs {
                let xv = loadVec(x + v * laneCount)
                a0.accumulate(xv, loadVec(w0 + v * laneCount))
                a1.accumulate(xv, loadVec(w1 + v * laneCount))
                a2.accumulate(xv, loadVec(w2 + v * laneCount))
                a3.accumulate(xv, loadVec(w3 + v * laneCount))
            }
            y[o] = a0.sum() + bias[o]
            y[o + 1] = a1.sum() + bias[o + 1]
            y[o + 2] = a2.sum() + bias[o + 2]
            y[o + 3] = a3.sum() + bias[o + 3]
            o += 4
        }
        while o < outFeatures {
            var a = Vec()
            let w0 = weights.data + o * rowStride
            for v in 0..<vecs { a.accumulate(loadVec(x + v * laneCount), loadVec(w0 + v * laneCount)) }
            y[o] = a.sum() + bias[o]
            o += 1
        }
    }

    public func run(_ x: [Float]) -> [Float] {
        precondition(x.count == inFeatures, "FullyConnected: \(x.count) inputs, expected \(inFeatures)")
        let padded = AlignedFloats(count: rowStride)
        for i in 0..<inFeatures { padded.data[i] = x[i] }
        var y = [Float](repeating: 0, count: outFeatures)
        y.withUnsafeMutableBufferPointer { run(padded.data, into: $0.baseAddress!) }
        return y
    }

    /// Plain scalar reference.
    public static func reference(input: [Float], weights: [Float], bias: [Float]?, inFeatures: Int, outFeatures: Int) -> [Float] {
        (0..<outFeatures).map { o in
            var s: Float = bias?[o] ?? 0
            for i in 0..<inFeatures { s += weights[o * inFeatures + i] * input[i] }
            return s
        }
    }
}
