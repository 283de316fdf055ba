import Analysis
import Foundation
import GlimtCore
import Imaging
import TensorLite

/// SFace (Zhong et al. 2021, OpenCV Zoo 2021dec): a 112x112 aligned RGB face in, a 128-d
/// L2-normalised embedding out. The network is a plain stack: a 3x3 conv, thirteen depthwise +
/// pointwise pairs (each conv followed by BatchNorm and PReLU), a final BatchNorm and one fully
/// connected layer with BatchNorm. All BatchNorms are folded into the weights at load time.
public final class SFace: BakedModel, FaceRecognizing, @unchecked Sendable {
    public static let inputSize = 112
    public static let embeddingSize = 128

    /// (name in the weight file, depthwise stride, pointwise output channels) for conv_2...conv_14.
    static let blocks: [(name: String, stride: Int, out: Int)] = [
        ("conv_2", 1, 64), ("conv_3", 2, 128), ("conv_4", 1, 128), ("conv_5", 2, 256), ("conv_6", 1, 256),
        ("conv_7", 2, 512), ("conv_8", 1, 512), ("conv_9", 1, 512), ("conv_10", 1, 512), ("conv_11", 1, 512),
        ("conv_12", 1, 512), ("conv_13", 2, 1024), ("conv_14", 1, 1024),
    ]

    private struct Block {
        let name: String
        let depthwise: DepthwiseConv
        let pointwise: any PointwiseLayer
        var fused: DepthwisePointwise { DepthwisePointwise(depthwise: depthwise, pointwise: pointwise) }
    }

    private let inputSub: Float
    private let inputMul: Float
    private let stem: Conv3x3
    private let body: [Block]
    private let head: Head
    /// Whether fc1 runs from the weight file's int8 blocks (what tests check the baked file does).
    package var runsInt8Head: Bool {
        if case .quantized = head { return true }
        return false
    }
    private let workspaces = WorkspacePool<[Tensor]>()
    /// Blocks from this one on produce the last, smallest maps (7x7). A batch runs their
    /// pointwise layers once over all its faces' maps stacked into one tall map, so their weights
    /// (2 and 4 MB, more than the cache holds) stream once per batch instead of once per face;
    /// per pixel the sums are the same, so each face's outputs are bit-identical.
    private let tailStart: Int
    private let tailMaps = WorkspacePool<TailMaps>()
    /// The tail maps' height and width.
    private let tailSide: Int
    /// Blocks whose depthwise map is larger than this (the first ones: 0.8-3.2 MB, beyond L2) run
    /// it in bands straight into their pointwise layer; smaller maps stay in cache anyway.
    static let fuseAbove = 512 << 10
    /// Pointwise layers with fewer inputs stay in float in the int8 network: the first two (32
    /// and 64 inputs over 112x112 and 56x56 maps) ran no faster in int8, where quantizing each
    /// pixel and finishing each output weigh more against the few products per output.
    static let int8Inputs = 128
    /// The most faces one pass through the stacked tail takes; larger batches go in parts.
    static let maxBatch = 8

    // MARK: Loading

    public static let bakedName = "sface"
    /// The model the weights were baked from, e.g. `sface-2021dec`.
    public let modelName: String

    /// The arithmetic of the pointwise layers (most of the work): int8 where the build has an int8
    /// kernel (AVX-512 with VNNI; AVX2, with AVX-VNNI or without), embedding faces at cosine 0.998
    /// or more to the float network's (SFaceInt8Tests), the same embeddings in each; float in the
    /// portable build.
    public enum Arithmetic: String, Sendable, CaseIterable {
        case float, int8
        public static let fastest: Arithmetic = QuantizedPointwiseConv.isFast ? .int8 : .float
    }
    public let arithmetic: Arithmetic

    public convenience init(weights w: WeightFile) throws { try self.init(weights: w, quantizedHead: true, arithmetic: .fastest) }

    /// The baked network in the given arithmetic, loaded afresh (`shared()` is the product's):
    /// for the checks and benchmarks that hold one against the other.
    package static func baked(_ arithmetic: Arithmetic, quantizedHead: Bool = true) throws -> SFace {
        try fromBakedWeights { try SFace(weights: $0, quantizedHead: quantizedHead, arithmetic: arithmetic) }
    }

    /// `quantizedHead`: run fc1 from the file's int8 blocks when it has them (false: from floats,
    /// the check the int8 head is tested against).
    package init(weights w: WeightFile, quantizedHead: Bool, arithmetic: Arithmetic) throws {
        guard w.modelName.hasPrefix("sface") else { throw GlimtError("weight file holds \(w.modelName), not SFace") }
        modelName = w.modelName
        self.arithmetic = arithmetic
        inputSub = try w.scalar("input_sub")
        inputMul = try w.scalar("input_mul")

        func batchNorm(_ name: String, _ channels: Int) throws -> BatchNorm {
            BatchNorm(
                gamma: try w.tensor("\(name)_gamma", shape: [channels]), beta: try w.tensor("\(name)_beta", shape: [channels]),
                mean: try w.tensor("\(name)_moving_mean", shape: [channels]),
                variance: try w.tensor("\(name)_moving_var", shape: [channels]), epsilon: try w.scalar("\(name)_epsilon"))
        }
        func prelu(_ name: String, _ channels: Int) throws -> Activation {
            .prelu(try w.tensor("\(name)_relu_gamma", shape: [channels]))
        }

        let stemBN = try batchNorm("conv_1_batchnorm", 32)
        let stemW = stemBN.fold(weights: try w.tensor("conv_1_conv2d_weight", shape: [32, 3, 3, 3]), bias: nil)
        stem = Conv3x3(
            weights: stemW.weights, bias: stemW.bias, inChannels: 3, outChannels: 32, stride: 1,
            activation: try prelu("conv_1", 32))

        // int8 layers read the file's int8 blocks as they are, with the BatchNorm's scale on each
        // output; a layer stored otherwise, one with fewer than `int8Inputs` inputs, or float
        // arithmetic runs from the folded floats.
        func pointwise(
            _ name: String, from inChannels: Int, to outChannels: Int, batchNorm: BatchNorm,
            folded: (weights: [Float], bias: [Float])
        ) throws -> any PointwiseLayer {
            let activation = try prelu(name, outChannels)
            if arithmetic == .int8, inChannels >= Self.int8Inputs, let q = w.entry("\(name)_conv2d_weight")?.quantized,
                q.layout == [outChannels, inChannels] && q.axis == 1 && q.blockSize % laneCount == 0
            {
                return QuantizedPointwiseConv(
                    q: q.q, scales: q.scales, zeroPoints: q.zeroPoints, blockSize: q.blockSize,
                    outputScale: batchNorm.scale, bias: batchNorm.shift,
                    inChannels: inChannels, outChannels: outChannels, activation: activation)
            }
            return PointwiseConv(weights: folded.weights, bias: folded.bias, inChannels: inChannels, outChannels: outChannels, activation: activation)
        }

        var channels = 32
        var size = Self.inputSize
        var blocks: [Block] = []
        var sizes: [Int] = []  // each block's output side
        for b in Self.blocks {
            let dwBN = try batchNorm("\(b.name)_dw_batchnorm", channels)
            let dw = dwBN.fold(weights: try w.tensor("\(b.name)_dw_conv2d_weight", shape: [channels, 1, 3, 3]), bias: nil)
            let pwBN = try batchNorm("\(b.name)_batchnorm", b.out)
            let pw = pwBN.fold(weights: try w.tensor("\(b.name)_conv2d_weight", shape: [b.out, channels, 1, 1]), bias: nil)
            blocks.append(
                Block(
                    name: b.name,
                    depthwise: DepthwiseConv(
                        weights: dw.weights, bias: dw.bias, channels: channels, stride: b.stride,
                        activation: try prelu("\(b.name)_dw", channels)),
                    pointwise: try pointwise(b.name, from: channels, to: b.out, batchNorm: pwBN, folded: pw)))
            channels = b.out
            size = DepthwiseConv.outputSize(size, stride: b.stride)
            sizes.append(size)
        }
        body = blocks
        tailStart = sizes.firstIndex(of: size)!
        tailSide = size

        // bn1 (on the 7x7x1024 map) and fc1 (on the 128 outputs) fold into the fully connected
        // layer. bn1's shift and fc1's BatchNorm fold into its bias either way.
        let spatial = size * size
        let features = spatial * channels
        let bn1 = try batchNorm("bn1", channels)
        let fc1 = try batchNorm("fc1", Self.embeddingSize)
        let fcB = try w.tensor("pre_fc1_bias", shape: [Self.embeddingSize])
        let int8Head =
            quantizedHead
            ? w.entry("pre_fc1_weight")?.quantized.flatMap { q in
                q.layout == [Self.embeddingSize, features] && q.axis == 1 && q.blockSize % laneCount == 0 ? q : nil
            } : nil
        // From int8 blocks, the bias is folded row by row: fc1's 25.7 MB of floats are never made.
        let fcW: [Float] = int8Head == nil ? try w.tensor("pre_fc1_weight", shape: [Self.embeddingSize, features]) : []
        var row = [Float](repeating: 0, count: features)
        var bias = [Float](repeating: 0, count: Self.embeddingSize)
        for o in 0..<Self.embeddingSize {
            row.withUnsafeMutableBufferPointer { r in
                if let q = int8Head { q.dequantize(outer: o, into: r) } else { for j in 0..<features { r[j] = fcW[o * features + j] } }
            }
            var shift = Double(fcB[o])
            for c in 0..<channels {
                for p in 0..<spatial { shift += Double(row[c * spatial + p]) * Double(bn1.shift[c]) }
            }
            bias[o] = Float(shift) * fc1.scale[o] + fc1.shift[o]
        }
        // The int8 blocks run along ONNX's NCHW flattening, so that head reads the map in NCHW
        // order, with bn1's scale applied to the input and fc1's to the output.
        if let q = int8Head {
            head = .quantized(
                QuantizedFullyConnected(
                    weights: q.q, blockScales: q.scales, zeroPoints: q.zeroPoints, blockSize: q.blockSize,
                    outputScale: fc1.scale,
                    bias: bias, inFeatures: features, outFeatures: Self.embeddingSize),
                inputScale: bn1.scale)
        } else {
            // Float weights are reordered to our NHWC flattening with both scales folded in.
            var weights = [Float](repeating: 0, count: fcW.count)
            for o in 0..<Self.embeddingSize {
                for c in 0..<channels {
                    for p in 0..<spatial {
                        weights[o * features + p * channels + c] = fcW[o * features + c * spatial + p] * bn1.scale[c] * fc1.scale[o]
                    }
                }
            }
            head = .float(FullyConnected(weights: weights, bias: bias, inFeatures: features, outFeatures: Self.embeddingSize))
        }
    }

    /// fc1 with bn1 and fc1's BatchNorm folded in: from int8 blocks (a quarter of the bytes to
    /// stream, once per batch), or from floats.
    private enum Head {
        case quantized(QuantizedFullyConnected, inputScale: [Float])
        case float(FullyConnected)

        var inFeatures: Int {
            switch self {
            case .quantized(let fc, _): return fc.inFeatures
            case .float(let fc): return fc.inFeatures
            }
        }

        /// Floats per face in the batch's input rows.
        var rowStride: Int {
            switch self {
            case .quantized(let fc, _): return fc.paddedInFeatures
            case .float(let fc): return roundUp(fc.inFeatures, to: laneCount)
            }
        }

        /// Writes the last feature map as this head reads it into a zeroed row.
        func prepare(_ map: Tensor, into row: UnsafeMutablePointer<Float>) {
            switch self {
            case .quantized(_, let scale): map.copyChannelsFirst(scale: scale, into: row)
            case .float:
                for p in 0..<map.pixelCount { (row + p * map.channels).update(from: map.pixel(p / map.width, p % map.width), count: map.channels) }
            }
        }

        func run(_ x: UnsafePointer<Float>, count: Int, into y: UnsafeMutablePointer<Float>) {
            switch self {
            case .quantized(let fc, _): fc.run(x, count: count, into: y)
            case .float(let fc): for f in 0..<count { fc.run(x + f * rowStride, into: y + f * fc.outFeatures) }
            }
        }
    }

    // MARK: Running

    /// The maps of one face's pass, views into three buffers: the stem's and the pointwise
    /// layers' outputs take turns in two (a layer reads one and writes the other), the depthwise
    /// outputs (whole, or a band when fused) all go in the third. A layer then writes where the
    /// layer before last wrote, still in cache, instead of into a map of its own last touched a
    /// face ago (write-allocate misses from L3: the small depthwise layers felt them most).
    private func makeWorkspace() -> [Tensor] {
        var shapes: [(side: Int, depthwise: Int, pointwise: Int)] = []
        var side = Self.inputSize, channels = 32
        for b in Self.blocks {
            side = DepthwiseConv.outputSize(side, stride: b.stride)
            shapes.append((side, channels, b.out))
            channels = b.out
        }
        func floats(_ side: Int, _ channels: Int) -> Int { side * side * roundUp(channels, to: laneCount) }
        let turns = (0..<2).map { _ in AlignedFloats(count: shapes.map { floats($0.side, $0.pointwise) }.max()!) }
        let depthwise = AlignedFloats(count: shapes.map { floats($0.side, $0.depthwise) }.max()!)
        // t[0] is unused (the stem reads the picture's bytes); t[1] is the stem's output.
        var tensors = [
            Tensor(height: 1, width: 1, channels: 1),
            Tensor(height: Self.inputSize, width: Self.inputSize, channels: 32, in: turns[0]),
        ]
        for (j, s) in shapes.enumerated() {
            tensors.append(Tensor(height: s.side, width: s.side, channels: s.depthwise, in: depthwise))
            tensors.append(Tensor(height: s.side, width: s.side, channels: s.pointwise, in: turns[(j + 1) % 2]))
        }
        return tensors
    }

    /// Runs the stem and `body[..<end]` on one face and hands the last map to `finish` (inside the
    /// workspace, which is reused once `finish` returns).
    private func body(_ face: RGBImage, end: Int, profile: LayerProfile?, inspect: ((String, Tensor) -> Void)?, finish: (Tensor) -> Void) {
        precondition(face.width == Self.inputSize && face.height == Self.inputSize, "SFace needs a 112x112 face, got \(face.width)x\(face.height)")
        workspaces.with(make: makeWorkspace) { t in
            profile.measure("conv_1", flops: 2 * 27 * 32 * t[1].pixelCount) {
                face.pixels.withUnsafeBufferPointer { px in
                    stem.run(
                        ByteImage(
                            data: px.baseAddress!, width: Self.inputSize, height: Self.inputSize,
                            offset: -inputSub, scale: inputMul), into: t[1])
                }
            }
            inspect?("conv_1_relu", t[1])
            var i = 1
            for b in body[..<end] {
                let dwOut = t[i + 1], pwOut = t[i + 2]
                if let inspect {
                    // The depthwise map whole, for the layer-by-layer check.
                    b.depthwise.run(t[i], into: dwOut)
                    inspect("\(b.name)_dw_relu", dwOut)
                    b.pointwise.run(dwOut, into: pwOut)
                    inspect("\(b.name)_relu", pwOut)
                } else if dwOut.pixelCount * dwOut.pixelStride * MemoryLayout<Float>.stride > Self.fuseAbove {
                    profile.measure("\(b.name) dw+pw", flops: b.fused.flops * pwOut.pixelCount) { b.fused.run(t[i], into: pwOut, scratch: dwOut) }
                } else {
                    profile.measure("\(b.name)_dw", flops: b.depthwise.flops * dwOut.pixelCount) { b.depthwise.run(t[i], into: dwOut) }
                    profile.measure(b.name, flops: b.pointwise.flops * pwOut.pixelCount) { b.pointwise.run(dwOut, into: pwOut) }
                }
                i += 2
            }
            finish(t[i])
        }
    }

    /// The tail blocks' maps for up to `maxBatch` faces: for each block, its depthwise and its
    /// pointwise outputs, each face's map after the previous face's in one buffer.
    private final class TailMaps {
        let depthwise: [AlignedFloats]
        let pointwise: [AlignedFloats]
        let side: Int
        let inChannels: [Int]
        let outChannels: [Int]

        init(blocks: ArraySlice<Block>, side: Int) {
            self.side = side
            inChannels = blocks.map(\.depthwise.channels)
            outChannels = blocks.map(\.pointwise.outChannels)
            depthwise = inChannels.map { AlignedFloats(count: SFace.maxBatch * side * side * roundUp($0, to: laneCount)) }
            pointwise = outChannels.map { AlignedFloats(count: SFace.maxBatch * side * side * roundUp($0, to: laneCount)) }
        }

        /// Face `face`'s map in `buffer`; `faces` faces' maps as one map `faces * side` rows tall.
        func map(_ buffer: AlignedFloats, channels: Int, face: Int) -> Tensor {
            Tensor(height: side, width: side, channels: channels, in: buffer, offset: face * side * side * roundUp(channels, to: laneCount))
        }
        func stacked(_ buffer: AlignedFloats, channels: Int, faces: Int) -> Tensor {
            Tensor(height: faces * side, width: side, channels: channels, in: buffer)
        }
    }

    /// The raw 128 outputs of the network (fc1) for each face, before normalisation. The tail's
    /// pointwise layers run once over the batch's stacked maps and fc1 once for the whole batch;
    /// each face's outputs are bit-identical to running it alone.
    package func forward(batch faces: [RGBImage], profile: LayerProfile? = nil) -> [[Float]] {
        guard faces.count <= Self.maxBatch else {
            return stride(from: 0, to: faces.count, by: Self.maxBatch).flatMap {
                forward(batch: Array(faces[$0..<min(faces.count, $0 + Self.maxBatch)]), profile: profile)
            }
        }
        guard !faces.isEmpty else { return [] }
        let stride = head.rowStride
        let x = AlignedFloats(count: faces.count * stride)
        let tail = body[tailStart...]
        tailMaps.with(make: { TailMaps(blocks: tail, side: tailSide) }) { maps in
            for (f, face) in faces.enumerated() {
                body(face, end: tailStart, profile: profile, inspect: nil) { last in
                    let b = tail.first!, out = maps.map(maps.depthwise[0], channels: b.depthwise.channels, face: f)
                    profile.measure("\(b.name)_dw", flops: b.depthwise.flops * out.pixelCount) { b.depthwise.run(last, into: out) }
                }
            }
            for (j, b) in tail.enumerated() {
                if j > 0 {
                    for f in faces.indices {
                        let input = maps.map(maps.pointwise[j - 1], channels: maps.outChannels[j - 1], face: f)
                        let out = maps.map(maps.depthwise[j], channels: maps.inChannels[j], face: f)
                        profile.measure("\(b.name)_dw", flops: b.depthwise.flops * out.pixelCount) { b.depthwise.run(input, into: out) }
                    }
                }
                let input = maps.stacked(maps.depthwise[j], channels: maps.inChannels[j], faces: faces.count)
                let out = maps.stacked(maps.pointwise[j], channels: maps.outChannels[j], faces: faces.count)
                profile.measure(b.name, flops: b.pointwise.flops * out.pixelCount) { b.pointwise.run(input, into: out) }
            }
            for f in faces.indices {
                head.prepare(maps.map(maps.pointwise[tail.count - 1], channels: maps.outChannels[tail.count - 1], face: f), into: x.data + f * stride)
            }
        }
        var y = [Float](repeating: 0, count: faces.count * Self.embeddingSize)
        profile.measure("fc1", flops: 2 * head.inFeatures * Self.embeddingSize * faces.count) {
            y.withUnsafeMutableBufferPointer { head.run(x.data, count: faces.count, into: $0.baseAddress!) }
        }
        return (0..<faces.count).map { Array(y[$0 * Self.embeddingSize..<($0 + 1) * Self.embeddingSize]) }
    }

    /// The raw 128 outputs of the network (fc1), before normalisation. `inspect`, when given, sees
    /// every activation as it is produced, named as the ONNX graph names it (`conv_1_relu`,
    /// `conv_2_dw_relu`, ...): the hook the layer-by-layer golden test uses.
    package func forward(_ face: RGBImage, profile: LayerProfile? = nil, inspect: ((String, Tensor) -> Void)? = nil) -> [Float] {
        let x = AlignedFloats(count: head.rowStride)
        body(face, end: body.count, profile: profile, inspect: inspect) { head.prepare($0, into: x.data) }
        var out = [Float](repeating: 0, count: Self.embeddingSize)
        profile.measure("fc1", flops: 2 * head.inFeatures * Self.embeddingSize) {
            out.withUnsafeMutableBufferPointer { head.run(x.data, count: 1, into: $0.baseAddress!) }
        }
        return out
    }

    /// The L2-normalised embedding of an aligned 112x112 RGB face.
    public func embed(_ face: RGBImage) -> Embedding { embed(face, profile: nil) }

    package func embed(_ face: RGBImage, profile: LayerProfile?) -> Embedding {
        Embedding(normalizing: forward(face, profile: profile))
    }

    /// The embeddings of several aligned faces, in order, bit-identical to embedding each alone;
    /// fc1's weights stream once for the batch.
    public func embed(_ faces: [RGBImage]) -> [Embedding] {
        forward(batch: faces).map { Embedding(normalizing: $0) }
    }
}
