/// A pointwise conv followed by a 3x3 depthwise conv, run row by row: each pointwise output row
/// is made just before the first depthwise row that needs it, into a ring of three rows, so the
/// intermediate map (as wide as the output, megabytes at detector sizes) never leaves the cache.
/// Equal, bit for bit, to running the two convolutions one after the other.
public struct PointwiseDepthwise: Sendable {
    public let pointwise: PointwiseConv
    public let depthwise: DepthwiseConv

    public init(pointwise: PointwiseConv, depthwise: DepthwiseConv) {
        precondition(
            pointwise.outChannels == depthwise.channels,
            "PointwiseDepthwise: \(pointwise.outChannels) pointwise outputs for \(depthwise.channels) depthwise channels")
        self.pointwise = pointwise
        self.depthwise = depthwise
    }

    /// Per input pixel.
    public var flops: Int { pointwise.flops + depthwise.flops }

    public func run(_ input: Tensor, into output: Tensor) {
        precondition(
            input.channels == pointwise.inChannels && output.channels == depthwise.channels,
            "PointwiseDepthwise: channels \(input.channels)->\(output.channels)")
        let (oh, ow) = depthwise.outputShape(height: input.height, width: input.width)
        precondition(output.height == oh && output.width == ow, "PointwiseDepthwise: output must be \(oh)x\(ow)")
        var rows = RowRing(self, InputRows(input))
        for oy in 0..<oh {
            rows.depthwiseRow(oy, into: output.data + oy * ow * output.pixelStride, outputStride: output.pixelStride)
        }
    }

    /// The same followed by 2x2 max pooling (stride 2, odd edges dropped, as `MaxPool2x2`): two
    /// depthwise rows at a time go to a small buffer and only their maximum to `output`, so the
    /// full-size map is never written either.
    public func run(_ input: Tensor, intoPooled output: Tensor) {
        precondition(input.channels == pointwise.inChannels, "PointwiseDepthwise: \(input.channels) input channels, expected \(pointwise.inChannels)")
        runPooled(InputRows(input), into: output)
    }

    /// The same with the stem's output rows as input, made as they are needed: the stem's map,
    /// the largest of a detector, is never stored whole.
    public func run(_ input: Conv3x3.Rows, intoPooled output: Tensor) {
        precondition(input.channels == pointwise.inChannels, "PointwiseDepthwise: \(input.channels) input channels, expected \(pointwise.inChannels)")
        let stride = roundUp(input.channels, to: laneCount)
        let scratch = AlignedFloats(count: input.width * stride)
        runPooled(
            InputRows(height: input.height, width: input.width, stride: stride) { y in
                input.row(y, into: scratch.data, pixelStride: stride)
                return UnsafePointer(scratch.data)
            }, into: output)
    }

    private func runPooled(_ input: InputRows, into output: Tensor) {
        precondition(output.channels == depthwise.channels, "PointwiseDepthwise: \(output.channels) output channels, expected \(depthwise.channels)")
        let (oh, ow) = depthwise.outputShape(height: input.height, width: input.width)
        precondition(output.height == oh / 2 && output.width == ow / 2, "PointwiseDepthwise: pooled output must be \(oh / 2)x\(ow / 2)")
        var rows = RowRing(self, input)
        let S = output.pixelStride
        let pair = AlignedFloats(count: 2 * ow * S)
        let upper = pair.data, lower = pair.data + ow * S
        for py in 0..<(oh / 2) {
            rows.depthwiseRow(2 * py, into: upper, outputStride: S)
            rows.depthwiseRow(2 * py + 1, into: lower, outputStride: S)
            let out = output.data + py * output.width * S
            for px in 0..<output.width {
                let a = upper + 2 * px * S, b = lower + 2 * px * S
                for c in Swift.stride(from: 0, to: S, by: laneCount) {
                    storeVec(vmax(vmax(loadVec(a + c), loadVec(a + S + c)), vmax(loadVec(b + c), loadVec(b + S + c))), out + px * S + c)
                }
            }
        }
    }

    /// Where the pointwise conv reads its input rows: a tensor, or a producer asked for each row
    /// once, top to bottom.
    private struct InputRows {
        let height: Int
        let width: Int
        let stride: Int
        let row: (Int) -> UnsafePointer<Float>

        init(height: Int, width: Int, stride: Int, row: @escaping (Int) -> UnsafePointer<Float>) {
            self.height = height
            self.width = width
            self.stride = stride
            self.row = row
        }

        init(_ t: Tensor) {
            self.init(height: t.height, width: t.width, stride: t.pixelStride) { y in UnsafePointer(t.data + y * t.width * t.pixelStride) }
        }
    }

    /// The pointwise rows the depthwise rows read, made on demand into a ring of three.
    private struct RowRing {
        let conv: PointwiseDepthwise
        let input: InputRows
        let midStride: Int
        let rowLength: Int
        let ring: AlignedFloats  // three rows, then the zero row
        var slotRow = [-1, -1, -1]

        init(_ conv: PointwiseDepthwise, _ input: InputRows) {
            self.conv = conv
            self.input = input
            midStride = roundUp(conv.depthwise.channels, to: laneCount)
            rowLength = input.width * midStride
            ring = AlignedFloats(count: 4 * rowLength)
        }

        mutating func row(_ y: Int) -> UnsafeMutablePointer<Float> {
            guard y >= 0 && y < input.height else { return ring.data + 3 * rowLength }
            let slot = y % 3
            let dst = ring.data + slot * rowLength
            if slotRow[slot] != y {
                slotRow[slot] = y
                conv.pointwise.runPixels(
                    input: input.row(y), inputStride: input.stride,
                    output: dst, outputStride: midStride, pixels: input.width)
            }
            return dst
        }

        /// Depthwise output row `oy`. Rows are asked for top to bottom, so a row is made before
        /// the one that evicts it from the ring.
        mutating func depthwiseRow(_ oy: Int, into out: UnsafeMutablePointer<Float>, outputStride: Int) {
            let iy = oy * conv.depthwise.stride - 1
            let top = row(iy), mid = row(iy + 1), bottom = row(iy + 2)
            conv.depthwise.runRow(
                top: top, mid: mid, bottom: bottom, width: input.width, inputStride: midStride,
                output: out, outputStride: outputStride)
        }
    }
}
