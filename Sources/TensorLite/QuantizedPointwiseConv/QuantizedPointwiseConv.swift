/// 1x1 convolution in int8 arithmetic, from weights stored as int8 blocks (`w = (q - z) * s`, one
/// scale and zero point per block of inputs, as the ONNX model ships them): the products use the
/// weights exactly as the float network's dequantized ones, so the only rounding is the inputs'.
///
/// Each input pixel is quantized as the layer reads it, block by block (the weights' blocks), to
/// unsigned bytes over the block's own range (min(x, 0) to max(x, 0) in 255 steps d, zero point
/// zp): a pixel's result depends on nothing but that pixel, whatever batch or band it comes in;
/// a layer's inputs are PReLU outputs, mostly positive, with a few large channels, and a range per
/// block and sign keeps those from coarsening the rest. Per output, block by block, VNNI's
/// `vpdpbusd` sums `q * u` four pairs per 32-bit lane, exactly (AVX2's `vpmaddwd` two, as exactly),
/// and the block adds
///     d * s * sum q u  -  s * z * (d * sum (u - zp))  -  s * sum q * (d * zp)
/// to a float accumulator (s, z the weights' block scale and zero point; the input's `d`,
/// `d * sum (u - zp)` and `d * zp` kept beside its bytes). Plus the bias, through the activation,
/// that is the output.
///
/// Weights are packed into panels `[K / 4][width][4]`, the layout `vpdpbusd` reads: one 64-byte
/// load holds four inputs' weights for 16 output channels. The AVX2 build without VNNI packs
/// them in pairs, `[K / 2][width][2]`, and keeps its quantized inputs in 16 bits, as `vpmaddwd`
/// reads them (`lanePack`, `inputBytes`). The tiles are one file per instruction set beside this
/// one (docs/architecture.md): 6 pixels x 32 channels on AVX-512 with VNNI, 6 pixels x 16
/// channels on AVX2, with AVX-VNNI or without. The portable build has only `reference`, which
/// does the same integer sums and the same float operations in the same order, one value at a
/// time: every tile's outputs are its, bit for bit, so every build's int8 network is the same.
public struct QuantizedPointwiseConv: Sendable {
    public let inChannels: Int
    public let outChannels: Int
    public let blockSize: Int
    let blocks: Int
    /// Values per quantized input row (`inputBytes` each) and bytes per packed weight row:
    /// `inChannels` rounded up to 16.
    let rowBytes: Int
    let paddedOut: Int
    let fullPanels: Int
    let narrowPanels: Int
    let packed: AlignedBytes
    /// `[block][paddedOut]`: the block's scale times the output's (a folded BatchNorm's).
    let blockScales: AlignedFloats
    /// `[block][paddedOut]`: `-z * scale`.
    let zeroTerms: AlignedFloats
    /// `[block][paddedOut]`: `-scale * sum_{k in block} q`.
    let weightSums: AlignedFloats
    let epilogue: Epilogue

    static let panel = 32
    /// Quantized input rows per step, as many as fill this many bytes at a byte an input: they stay
    /// in L1 (in 16 bits, twice the bytes, in L2) while every panel passes over them.
    static let chunkBytes = 32 << 10
    /// Pixels of a tile.
    static let tileRows = 6
    /// Inputs whose products a tile sums into one 32-bit lane (an output's weights for them sit
    /// side by side in a panel), and bytes of a quantized input: four bytes for `vpdpbusd`; two
    /// 16-bit values for `vpmaddwd` in the AVX2 build without VNNI.
    #if GLIMT_AVX2 && !GLIMT_AVXVNNI
    static let lanePack = 2
    static let inputBytes = 2
    #else
    static let lanePack = 4
    static let inputBytes = 1
    #endif

    /// Whether this build has an int8 kernel (the AVX-512 build, which has VNNI, and the AVX2 build,
    /// with AVX-VNNI or without); without it (the portable build) `run` is the reference, far
    /// slower than the float kernel, and only tests call it.
    #if GLIMT_AVX512 || GLIMT_AVX2
    public static let isFast = true
    #else
    public static let isFast = false
    #endif

    /// `q` is `[out][in]`; `scales` and `zeroPoints` are `[out][ceil(in / blockSize)]`, a weight
    /// being `(q - zeroPoint) * scale * outputScale[out]`; `blockSize` a multiple of 16.
    public init(
        q: [Int8], scales: [Float], zeroPoints: [Int8], blockSize: Int, outputScale: [Float]?, bias: [Float]?,
        inChannels: Int, outChannels: Int, activation: Activation = .none
    ) {
        let blocks = (inChannels + blockSize - 1) / blockSize
        precondition(q.count == inChannels * outChannels, "QuantizedPointwiseConv: \(q.count) weights for \(outChannels)x\(inChannels)")
        precondition(
            scales.count == outChannels * blocks && zeroPoints.count == scales.count,
            "QuantizedPointwiseConv: \(scales.count) block scales for \(outChannels)x\(blocks) blocks")
        precondition(blockSize > 0 && blockSize % laneCount == 0, "QuantizedPointwiseConv: block size \(blockSize) is not a multiple of \(laneCount)")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.blockSize = blockSize
        self.blocks = blocks
        rowBytes = roundUp(inChannels, to: laneCount)
        paddedOut = roundUp(outChannels, to: laneCount)
        fullPanels = paddedOut / Self.panel
        narrowPanels = (paddedOut - fullPanels * Self.panel) / laneCount
        blockScales = AlignedFloats(count: blocks * paddedOut)
        zeroTerms = AlignedFloats(count: blocks * paddedOut)
        weightSums = AlignedFloats(count: blocks * paddedOut)
        for n in 0..<outChannels {
            for b in 0..<blocks {
                let s = scales[n * blocks + b] * (outputScale?[n] ?? 1)
                blockScales.data[b * paddedOut + n] = s
                zeroTerms.data[b * paddedOut + n] = -Float(zeroPoints[n * blocks + b]) * s
                var blockSum = 0
                for k in (b * blockSize)..<min(inChannels, (b + 1) * blockSize) { blockSum += Int(q[n * inChannels + k]) }
                weightSums.data[b * paddedOut + n] = -s * Float(blockSum)
            }
        }
        let pack = Self.lanePack
        packed = AlignedBytes(count: paddedOut * rowBytes)
        var offset = 0
        var n0 = 0
        for width in Array(repeating: Self.panel, count: fullPanels) + Array(repeating: laneCount, count: narrowPanels) {
            for g in 0..<(rowBytes / pack) {
                for j in 0..<width where n0 + j < outChannels {
                    for r in 0..<pack where pack * g + r < inChannels {
                        packed.data[offset + (g * width + j) * pack + r] = q[(n0 + j) * inChannels + pack * g + r]
                    }
                }
            }
            offset += width * rowBytes
            n0 += width
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: outChannels)
    }

    public var flops: Int { 2 * inChannels * outChannels }

    /// Floats kept per quantized input pixel: per block its step d, `d * sum (u - zp)` and `d * zp`.
    var pixelFacts: Int { 3 * blocks }

    /// The packed weight of output `n`, input `k`.
    func weight(_ n: Int, _ k: Int) -> Int8 {
        let full = fullPanels * Self.panel, pack = Self.lanePack
        let (base, width, j) =
            n < full
            ? (n / Self.panel * Self.panel * rowBytes, Self.panel, n % Self.panel)
            : (full * rowBytes + (n - full) / laneCount * laneCount * rowBytes, laneCount, n % laneCount)
        return packed.data[base + (k / pack * width + j) * pack + k % pack]
    }

    /// `input` and `output` must have the same height and width.
    public func run(_ input: Tensor, into output: Tensor) {
        precondition(
            input.channels == inChannels && output.channels == outChannels,
            "QuantizedPointwiseConv: channels \(input.channels)->\(output.channels), expected \(inChannels)->\(outChannels)")
        precondition(input.height == output.height && input.width == output.width, "QuantizedPointwiseConv: spatial size mismatch")
        runPixels(input: input.data, inputStride: input.pixelStride, output: output.data, outputStride: output.pixelStride, pixels: input.pixelCount)
    }

    /// A pixel's quantization from its smallest and largest values: what they are multiplied by,
    /// the step that undoes it (both 0 for an all-zero pixel) and the byte that stands for 0.
    @inline(__always) static func quantization(smallest: Float, largest: Float) -> (inverse: Float, step: Float, zero: Int32) {
        let low = min(smallest, 0), range = max(largest, 0) - low
        guard range > 0 else { return (0, 0, 0) }
        let inverse = 255 / range
        return (inverse, range / 255, Int32((-low * inverse).rounded(.toNearestOrEven)))
    }

    /// The k/4 groups of block `b`.
    @inline(__always) func groups(_ b: Int) -> Range<Int> { (b * blockSize / 4)..<(min(rowBytes, (b + 1) * blockSize) / 4) }

    /// The GEMM over `pixels` pixels laid `inputStride` and `outputStride` floats apart.
    public func runPixels(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        #if GLIMT_AVX512 || GLIMT_AVX2
        let chunk = max(Self.tileRows, Self.chunkBytes / rowBytes / Self.tileRows * Self.tileRows)
        withUnsafeTemporaryAllocation(byteCount: chunk * rowBytes * Self.inputBytes, alignment: 64) { rows in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: chunk * pixelFacts) { facts in
                let q = rows.baseAddress!.assumingMemoryBound(to: UInt8.self), f = facts.baseAddress!
                for p0 in stride(from: 0, to: pixels, by: chunk) {
                    let count = min(chunk, pixels - p0)
                    quantize(input + p0 * inputStride, inputStride, count, into: q, facts: f)
                    gemm(q, f, count, output + p0 * outputStride, outputStride)
                }
            }
        }
        #else
        reference(input: input, inputStride: inputStride, output: output, outputStride: outputStride, pixels: pixels)
        #endif
    }
}
