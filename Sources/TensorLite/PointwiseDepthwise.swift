/// A pointwise conv followed by a 3x3 depthwise conv, run row by row: each pointwise output row
/// is made just before the first depthwise row that needs it, into a ring of three rows, so the
/// intermediate map (as wide as the output, megabytes at detector sizes) never leaves the cache.
/// Equal, bit for bit, to running the two convolutions one after the other.
public struct PointwiseDepthwise: Sendable {
    public let pointwise: PointwiseConv
    public let depthwise: DepthwiseConv

    public init(pointwise: PointwiseConv, depthwise: DepthwiseConv) {
        precondition(pointwise.outChannels == depthwise.channels, "PointwiseDepthwise: \(pointwise.outChannels) pointwise outputs for \(depthwise.channels) depthwise channels")
        self.pointwise = pointwise
        self.depthwise = depthwise
    }

    /// Per input pixel.
    public var flops: Int { pointwise.flops + 18 * depthwise.channels }

    public func run(_ input: Tensor, into output: Tensor) {
        precondition(input.channels == pointwise.inChannels && output.channels == depthwise.channels, "PointwiseDepthwise: channels \(input.channels)->\(output.channels)")
        let (oh, ow) = depthwise.outputShape(height: input.height, width: input.width)
        precondition(output.height == oh && output.width == ow, "PointwiseDepthwise: output must be \(oh)x\(ow)")
        let H = input.height, W = input.width, s = depthwise.stride
        let midStride = roundUp(depthwise.channels, to: laneCount)
        let rowLength = W * midStride
        let ring = AlignedFloats(count: 4 * rowLength)  // three rows, then the zero row
        let zeroRow = ring.data + 3 * rowLength
        var slotRow = [Int](repeating: -1, count: 3)
        func row(_ y: Int) -> UnsafeMutablePointer<Float> {
            guard y >= 0 && y < H else { return zeroRow }
            let slot = y % 3
            let dst = ring.data + slot * rowLength
            if slotRow[slot] != y {
                slotRow[slot] = y
                pointwise.runPixels(input: input.data + y * W * input.pixelStride, inputStride: input.pixelStride,
                                    output: dst, outputStride: midStride, pixels: W)
            }
            return dst
        }
        for oy in 0..<oh {
            let iy = oy * s - 1
            // In order top to bottom: a row is made before the one that evicts it from the ring.
            let top = row(iy), mid = row(iy + 1), bottom = row(iy + 2)
            depthwise.runRow(top: top, mid: mid, bottom: bottom, width: W, inputStride: midStride,
                             output: output.data + oy * ow * output.pixelStride, outputStride: output.pixelStride)
        }
    }
}
