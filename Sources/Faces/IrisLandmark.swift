import Foundation
import GlimtCore
import Imaging
import TensorLite

/// MediaPipe's iris landmark model (`iris_landmark.tflite`, mediapipe 0.10.14, Apache-2.0): a 64x64
/// crop of one eye in, 71 eye-contour points (both eyelids, then rings out to the brow) and 5 iris
/// points out, each x, y (crop pixels) and a relative depth. It was trained on the eye on the
/// image's left (the person's right eye); the other eye is given mirrored.
///
/// Structure (all float32 in the .tflite, so the golden tests compare with its own runtime):
/// a 3x3 stride-2 conv, then residual blocks `x + expand(depthwise(reduce(x)))` each followed by
/// PReLU, with `reduce` a 1x1 conv to half the width (PReLU) or, in the blocks that halve the map,
/// a 2x2 stride-2 conv, whose shortcut is then a 2x2 max pool (zero channels added where the
/// width doubles). Ten blocks make a shared trunk down to 8x8; two branches of eight blocks each
/// (contours, iris) go down to 2x2, and a 2x2 conv reads each branch's points off its last map.
/// The 3x3 stem (TFLite's SAME padding: one zero row and column after the map, none before) and the
/// 2x2 convs run as `Patches` into the pointwise GEMM.
public final class IrisLandmark: BakedModel, @unchecked Sendable {
    public static let inputSize = 64
    public static let contourCount = 71
    public static let irisCount = 5

    public static let bakedName = "iris"

    /// A block: its reduce conv's number in the weight file (`conv2d_N`; the expand conv is N + 1
    /// and the PReLU after the sum is `p_re_lu_{N+1}`), its depthwise conv's number, and widths.
    struct BlockSpec {
        let conv: Int
        let depthwise: Int
        let channels: Int
        let out: Int
        let down: Bool
    }

    static func regular(_ conv: Int, _ dw: Int, _ c: Int) -> BlockSpec {
        BlockSpec(conv: conv, depthwise: dw, channels: c, out: c, down: false)
    }
    static func down(_ conv: Int, _ dw: Int, _ c: Int, _ out: Int) -> BlockSpec {
        BlockSpec(conv: conv, depthwise: dw, channels: c, out: out, down: true)
    }

    static let trunkSpec: [BlockSpec] =
        [regular(1, 0, 64), regular(3, 1, 64), regular(5, 2, 64), regular(7, 3, 64), down(9, 4, 64, 128)]
        + [regular(11, 5, 128), regular(13, 6, 128), regular(15, 7, 128), regular(17, 8, 128), down(19, 9, 128, 128)]
    /// A branch from the trunk's 8x8 map: two blocks per map size, 8x8, 4x4 and 2x2.
    static func branchSpec(conv c: Int, depthwise d: Int) -> [BlockSpec] {
        [
            regular(c, d, 128), regular(c + 2, d + 1, 128), down(c + 4, d + 2, 128, 128),
            regular(c + 6, d + 3, 128), regular(c + 8, d + 4, 128), down(c + 10, d + 5, 128, 128),
            regular(c + 12, d + 6, 128), regular(c + 14, d + 7, 128),
        ]
    }

    struct Block {
        let spec: BlockSpec
        /// A 2x2 stride-2 unfolding before `reduce`, in the blocks that halve the map.
        let patches: Patches?
        let reduce: PointwiseConv
        let expand: DepthwisePointwise
        let sum: ResidualAdd
        var mid: Int { reduce.outChannels }
    }

    private let stemPatches = Patches(size: 3, stride: 2, padTop: 0, padLeft: 0, inChannels: 3)
    private let stem: PointwiseConv
    private let trunk: [Block]
    private let contourBranch: [Block]
    private let irisBranch: [Block]
    private let headPatches = Patches(size: 2, stride: 2, inChannels: 128)
    private let contourHead: PointwiseConv
    private let irisHead: PointwiseConv
    private let arenas = WorkspacePool<TensorArena>()

    public init(weights w: WeightFile) throws {
        guard w.modelName.hasPrefix("mediapipe-iris-landmark") else {
            throw GlimtError("weight file holds \(w.modelName), not the iris landmark model")
        }
        func name(_ base: String, _ n: Int) -> String { n == 0 ? base : "\(base)_\(n)" }
        /// A k x k conv's weights `[out, in, k, k]` as the pointwise GEMM over patches wants them: `[out][ky][kx][in]`.
        func patchWeights(_ tensor: String, out: Int, in cin: Int, k: Int) throws -> [Float] {
            let oihw = try w.tensor(tensor, shape: [out, cin, k, k])
            var packed = [Float](repeating: 0, count: oihw.count)
            for o in 0..<out {
                for i in 0..<cin { for t in 0..<(k * k) { packed[(o * k * k + t) * cin + i] = oihw[(o * cin + i) * k * k + t] } }
            }
            return packed
        }
        func slopes(_ n: Int, _ c: Int) throws -> Activation { .prelu(try w.tensor(name("p_re_lu", n) + "/Alpha", shape: [c])) }
        func block(_ s: BlockSpec) throws -> Block {
            let mid = s.down ? 64 : s.channels / 2
            let reduceName = name("conv2d", s.conv)
            let reduce: PointwiseConv
            if s.down {
                reduce = PointwiseConv(
                    weights: try patchWeights("\(reduceName)/Kernel", out: mid, in: s.channels, k: 2),
                    bias: try w.tensor("\(reduceName)/Bias", shape: [mid]), inChannels: 4 * s.channels, outChannels: mid,
                    activation: try slopes(s.conv, mid))
            } else {
                reduce = PointwiseConv(
                    weights: try w.tensor("\(reduceName)/Kernel", shape: [mid, s.channels, 1, 1]),
                    bias: try w.tensor("\(reduceName)/Bias", shape: [mid]), inChannels: s.channels, outChannels: mid,
                    activation: try slopes(s.conv, mid))
            }
            let dwName = name("depthwise_conv2d", s.depthwise), expandName = name("conv2d", s.conv + 1)
            let expand = DepthwisePointwise(
                depthwise: DepthwiseConv(
                    weights: try w.tensor("\(dwName)/Kernel", shape: [mid, 1, 3, 3]), bias: try w.tensor("\(dwName)/Bias", shape: [mid]),
                    channels: mid, stride: 1),
                pointwise: PointwiseConv(
                    weights: try w.tensor("\(expandName)/Kernel", shape: [s.out, mid, 1, 1]),
                    bias: try w.tensor("\(expandName)/Bias", shape: [s.out]), inChannels: mid, outChannels: s.out))
            return Block(
                spec: s, patches: s.down ? Patches(size: 2, stride: 2, inChannels: s.channels) : nil, reduce: reduce, expand: expand,
                sum: ResidualAdd(channels: s.out, activation: try slopes(s.conv + 1, s.out)))
        }
        stem = PointwiseConv(
            weights: try patchWeights("conv2d/Kernel", out: 64, in: 3, k: 3), bias: try w.tensor("conv2d/Bias", shape: [64]),
            inChannels: 27, outChannels: 64, activation: try slopes(0, 64))
        trunk = try Self.trunkSpec.map(block)
        contourBranch = try Self.branchSpec(conv: 21, depthwise: 10).map(block)
        irisBranch = try Self.branchSpec(conv: 37, depthwise: 18).map(block)
        func head(_ n: String, _ out: Int) throws -> PointwiseConv {
            PointwiseConv(
                weights: try patchWeights("\(n)/Kernel", out: out, in: 128, k: 2), bias: try w.tensor("\(n)/Bias", shape: [out]),
                inChannels: 512, outChannels: out)
        }
        contourHead = try head("conv_eyes_contours_and_brows", 3 * Self.contourCount)
        irisHead = try head("conv_iris", 3 * Self.irisCount)
    }

    /// The model's outputs for one crop: `contour` 71 x (x, y, z), `iris` 5 x (x, y, z), flattened.
    public struct Output: Sendable {
        public var contour: [Float]
        public var iris: [Float]
        public func point(_ i: Int) -> Point { Point(contour[3 * i], contour[3 * i + 1]) }
    }

    /// Runs the network on a 64x64 RGB crop, fed as values in [0, 1] (as MediaPipe's graph does).
    /// Without `iris`, the iris branch (a tenth of the work) is skipped and `iris` is empty.
    public func run(_ crop: RGBImage, iris: Bool = true) -> Output {
        precondition(crop.width == Self.inputSize && crop.height == Self.inputSize, "IrisLandmark: crop must be 64x64")
        return arenas.with(make: TensorArena.init) { arena in
            arena.reset()
            let input = arena.next(height: 64, width: 64, channels: 3)
            crop.pixels.withUnsafeBufferPointer { px in
                for p in 0..<(64 * 64) {
                    let dst = input.data + p * input.pixelStride
                    for c in 0..<3 { dst[c] = Float(px[3 * p + c]) * (1 / 255) }
                }
            }
            let cols = arena.next(height: 32, width: 32, channels: stemPatches.outChannels)
            stemPatches.run(input, into: cols)
            var x = arena.next(height: 32, width: 32, channels: 64)
            stem.run(cols, into: x)
            for b in trunk { x = apply(b, x, arena) }
            let shared = x
            var c = shared
            for b in contourBranch { c = apply(b, c, arena) }
            let contour = head(contourHead, c, arena)
            guard iris else { return Output(contour: contour, iris: []) }
            var i = shared
            for b in irisBranch { i = apply(b, i, arena) }
            return Output(contour: contour, iris: head(irisHead, i, arena))
        }
    }

    private func apply(_ b: Block, _ x: Tensor, _ arena: TensorArena) -> Tensor {
        let h = b.spec.down ? x.height / 2 : x.height, w = b.spec.down ? x.width / 2 : x.width
        let reduced = arena.next(height: h, width: w, channels: b.mid)
        var skip = x
        if let patches = b.patches {
            let cols = arena.next(height: h, width: w, channels: patches.outChannels)
            patches.run(x, into: cols)
            b.reduce.run(cols, into: reduced)
            skip = arena.next(height: h, width: w, channels: x.channels)
            MaxPool2x2.run(x, into: skip)
        } else {
            b.reduce.run(x, into: reduced)
        }
        let out = arena.next(height: h, width: w, channels: b.spec.out)
        let scratch = arena.next(height: h, width: w, channels: b.mid)
        b.expand.run(reduced, into: out, scratch: scratch)
        b.sum.run(skip: skip, out, into: out)
        return out
    }

    private func head(_ conv: PointwiseConv, _ x: Tensor, _ arena: TensorArena) -> [Float] {
        let cols = arena.next(height: 1, width: 1, channels: headPatches.outChannels)
        headPatches.run(x, into: cols)
        let out = arena.next(height: 1, width: 1, channels: conv.outChannels)
        conv.run(cols, into: out)
        return out.values()
    }
}
