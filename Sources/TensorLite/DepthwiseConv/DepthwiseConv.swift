/// 3x3 depthwise convolution, padding 1, stride 1 or 2.
///
/// Each group of channels is one vector; its 9 weights stay in registers while the kernel sweeps
/// a row. Zero rows and columns stand in for the padding. The row kernels are one file per
/// register tile and instruction set beside this one (docs/architecture.md): the AVX-512 build
/// steps 8 pixels x 16 channels, the AVX2 and portable builds 5 pixels x 8 channels on stride-1
/// rows, and both fall back on a sliding window of 16 channels where their tile does not fit.
public struct DepthwiseConv: Sendable {
    public let channels: Int
    public let stride: Int
    let packed: AlignedFloats  // [9][paddedChannels]
    let epilogue: Epilogue

    /// `weights` is `[channels][3][3]` (ONNX's `[C, 1, 3, 3]`).
    public init(weights: [Float], bias: [Float]?, channels: Int, stride: Int, activation: Activation = .none) {
        precondition(weights.count == channels * 9, "DepthwiseConv: \(weights.count) weights for \(channels) channels")
        precondition(stride == 1 || stride == 2, "DepthwiseConv: stride \(stride) unsupported")
        self.channels = channels
        self.stride = stride
        let padded = roundUp(channels, to: laneCount)
        packed = AlignedFloats(count: 9 * padded)
        for c in 0..<channels {
            for t in 0..<9 { packed.data[t * padded + c] = weights[c * 9 + t] }
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: channels)
    }

    /// Per output pixel.
    public var flops: Int { 18 * channels }

    public static func outputSize(_ n: Int, stride: Int) -> Int { (n - 1) / stride + 1 }

    public func outputShape(height: Int, width: Int) -> (height: Int, width: Int) {
        (Self.outputSize(height, stride: stride), Self.outputSize(width, stride: stride))
    }

    public func run(_ input: Tensor, into output: Tensor) {
        let (oh, ow) = outputShape(height: input.height, width: input.width)
        precondition(input.channels == channels && output.channels == channels, "DepthwiseConv: channel mismatch")
        precondition(output.height == oh && output.width == ow, "DepthwiseConv: output must be \(oh)x\(ow)")
        run(input, rows: 0..<oh, into: output.data, outputStride: output.pixelStride)
    }

    /// Zeros for the rows above and below a map, shared by every call: never written.
    private static let zeroRows = AlignedFloats(count: 1 << 16)

    /// Output rows `rows` only, written to `output` from its start (a band of the output map,
    /// pixels `outputStride` floats apart).
    func run(_ input: Tensor, rows: Range<Int>, into output: UnsafeMutablePointer<Float>, outputStride: Int) {
        precondition(input.channels == channels && outputStride >= roundUp(channels, to: laneCount), "DepthwiseConv: channel mismatch")
        let H = input.height, W = input.width, s = stride
        let ow = Self.outputSize(W, stride: s)
        let rowStride = W * input.pixelStride
        // Rows above and below the map read from a zero row, so the inner loop has no row checks.
        let zeroRow = rowStride <= Self.zeroRows.count ? Self.zeroRows : AlignedFloats(count: rowStride)
        // Rows outermost: the three input rows an output row needs stay in cache while every
        // channel group sweeps them (channel-outer order re-read whole maps larger than L2).
        for oy in rows {
            let iy = oy * s - 1
            let top = iy >= 0 ? input.data + iy * rowStride : zeroRow.data
            let mid = input.data + (iy + 1) * rowStride
            let bot = iy + 2 < H ? input.data + (iy + 2) * rowStride : zeroRow.data
            runRow(
                top: top, mid: mid, bottom: bot, width: W, inputStride: input.pixelStride,
                output: output + (oy - rows.lowerBound) * ow * outputStride, outputStride: outputStride)
        }
    }

    /// One output row from the three input rows around it (`width` pixels each, `inputStride`
    /// floats apart; a zero row stands in for one outside the map), by the build's row kernel.
    func runRow(
        top: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, bottom: UnsafeMutablePointer<Float>,
        width W: Int, inputStride inS: Int, output: UnsafeMutablePointer<Float>, outputStride outS: Int
    ) {
        tiledRow(top, mid, bottom, W, inS, output, outS)
    }
}

/// The stride as a type: a row kernel written once for both strides is specialised for each, its
/// stride a constant, so a column two outputs share is loaded once.
protocol DepthwiseStride {
    static var step: Int { get }
}

enum StrideOne: DepthwiseStride {
    static var step: Int { 1 }
}

enum StrideTwo: DepthwiseStride {
    static var step: Int { 2 }
}
