/// 1x1 convolution (stride 1) as a GEMM over pixels: out[p][n] = act(sum_k in[p][k] * w[n][k] + b[n]).
///
/// Weights are packed at load time into panels of output channels laid out `[K][width]`, so one
/// step of the inner loop loads vectors of weights and broadcasts one input value per pixel.
///
/// The register tile is as large as the register file allows, so both FMA units stay busy without
/// spilling: one file per register tile and instruction set beside this one (docs/architecture.md).
/// `panel`, the width of a full panel, is the tile's.
public struct PointwiseConv: Sendable {
    public let inChannels: Int
    public let outChannels: Int
    let fullPanels: Int
    let narrowPanels: Int
    let packed: AlignedFloats
    let epilogue: Epilogue

    /// `weights` is `[out][in]` (ONNX's `[out, in, 1, 1]`), `bias` is `[out]` or nil.
    public init(weights: [Float], bias: [Float]?, inChannels: Int, outChannels: Int, activation: Activation = .none) {
        precondition(weights.count == inChannels * outChannels, "PointwiseConv: \(weights.count) weights for \(outChannels)x\(inChannels)")
        self.inChannels = inChannels
        self.outChannels = outChannels
        let paddedOut = roundUp(outChannels, to: laneCount)
        fullPanels = paddedOut / Self.panel
        narrowPanels = (paddedOut - fullPanels * Self.panel) / laneCount
        packed = AlignedFloats(count: paddedOut * inChannels)
        // Panel layout: full panels first ([K][panel] each), then narrow ones ([K][16] each).
        var offset = 0
        var n0 = 0
        for width in Array(repeating: Self.panel, count: fullPanels) + Array(repeating: laneCount, count: narrowPanels) {
            for k in 0..<inChannels {
                for j in 0..<width where n0 + j < outChannels {
                    packed.data[offset + k * width + j] = weights[(n0 + j) * inChannels + k]
                }
            }
            offset += width * inChannels
            n0 += width
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: outChannels)
    }

    public var flops: Int { 2 * inChannels * outChannels }

    /// `input` and `output` must have the same height and width.
    public func run(_ input: Tensor, into output: Tensor) {
        precondition(
            input.channels == inChannels && output.channels == outChannels,
            "PointwiseConv: channels \(input.channels)->\(output.channels), expected \(inChannels)->\(outChannels)")
        precondition(input.height == output.height && input.width == output.width, "PointwiseConv: spatial size mismatch")
        runPixels(input: input.data, inputStride: input.pixelStride, output: output.data, outputStride: output.pixelStride, pixels: input.pixelCount)
    }

    /// The GEMM over `pixels` pixels laid `inputStride` and `outputStride` floats apart.
    public func runPixels(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        gemm(input: input, inputStride: inputStride, output: output, outputStride: outputStride, pixels: pixels)
    }
}
