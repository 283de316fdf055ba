/// A 3x3 depthwise conv followed by a pointwise conv (float or int8), in bands of rows: each band of depthwise
/// output goes to a small buffer and straight through the pointwise layer while it is still in
/// cache, so the intermediate map (megabytes for a face's first blocks) is never written whole.
/// Equal, bit for bit, to running the two one after the other: every output value is summed in
/// the same order whatever band it falls in.
public struct DepthwisePointwise: Sendable {
    public let depthwise: DepthwiseConv
    public let pointwise: any PointwiseLayer

    /// Depthwise output per band: with the pointwise weights it stays in L2.
    static let bandBytes = 64 << 10

    public init(depthwise: DepthwiseConv, pointwise: any PointwiseLayer) {
        precondition(
            depthwise.channels == pointwise.inChannels,
            "DepthwisePointwise: \(depthwise.channels) depthwise channels for \(pointwise.inChannels) pointwise inputs")
        self.depthwise = depthwise
        self.pointwise = pointwise
    }

    /// Per output pixel.
    public var flops: Int { depthwise.flops + pointwise.flops }

    /// `scratch` holds the bands of depthwise rows: any tensor of at least the depthwise output's
    /// size (the map it replaces).
    public func run(_ input: Tensor, into output: Tensor, scratch: Tensor) {
        let (oh, ow) = depthwise.outputShape(height: input.height, width: input.width)
        precondition(
            input.channels == depthwise.channels && output.channels == pointwise.outChannels,
            "DepthwisePointwise: channels \(input.channels)->\(output.channels)")
        precondition(output.height == oh && output.width == ow, "DepthwisePointwise: output must be \(oh)x\(ow)")
        let stride = roundUp(depthwise.channels, to: laneCount)
        precondition(scratch.pixelCount * scratch.pixelStride >= oh * ow * stride, "DepthwisePointwise: scratch smaller than the depthwise map")
        let bandRows = max(1, Self.bandBytes / (ow * stride * MemoryLayout<Float>.stride))
        for y0 in Swift.stride(from: 0, to: oh, by: bandRows) {
            let rows = y0..<min(oh, y0 + bandRows)
            depthwise.run(input, rows: rows, into: scratch.data, outputStride: stride)
            pointwise.runPixels(
                input: scratch.data, inputStride: stride, output: output.data + y0 * ow * output.pixelStride,
                outputStride: output.pixelStride, pixels: rows.count * ow)
        }
    }
}
