import Foundation
import GlimtCore
import Imaging
import TensorLite

/// YuNet (libfacedetection, OpenCV Zoo 2023mar): the face detector network, fully convolutional,
/// run at any input size padded to a multiple of 32. It returns, per grid cell at strides 8, 16
/// and 32, the raw head outputs that `FaceDetector` decodes into boxes and landmarks.
///
/// Structure: a 3x3 stride-2 conv, then "DP units" (pointwise conv + depthwise 3x3 conv + ReLU)
/// in six stages, four of them after a 2x2 max pool; a top-down feature pyramid over the last three
/// stages; and per level four small heads (cls, obj, bbox, kps), each a pointwise conv and a
/// depthwise 3x3 conv. The four heads of a level are run as one 64->16 pointwise conv and one
/// 16-channel depthwise conv: 16 outputs per cell is exactly one vector. Every pointwise +
/// depthwise pair runs fused, row by row (`PointwiseDepthwise`).
public final class YuNet: BakedModel, @unchecked Sendable {
    public static let strides = [8, 16, 32]
    static let pooledStages: Set<Int> = [1, 3, 4, 5]

    /// Head outputs for one stride, channels-last per cell, sigmoids already applied to cls and
    /// obj (as the ONNX graph's outputs `cls_8`, `obj_8`, `bbox_8`, `kps_8`, ...).
    public struct Level: Sendable {
        public let stride: Int
        public let rows: Int
        public let cols: Int
        public var cls: [Float]
        public var obj: [Float]
        public var bbox: [Float]
        public var kps: [Float]
    }

    /// Channel positions in the fused head output.
    static let clsChannel = 0, objChannel = 1, bboxChannels = 2..<6, kpsChannels = 6..<16

    private struct DPUnit {
        let name: String
        let conv: PointwiseDepthwise
    }

    private let stem: Conv3x3
    /// Stages 0...5 of the backbone; a max pool precedes stages 1, 3, 4 and 5.
    private let stages: [[DPUnit]]
    private let laterals: [DPUnit]
    private let heads: [PointwiseDepthwise]
    private let arenas = WorkspacePool<TensorArena>()

    public static let bakedName = "yunet"

    public init(weights w: WeightFile) throws {
        guard w.modelName.hasPrefix("yunet") else { throw GlimtError("weight file holds \(w.modelName), not YuNet") }
        func unit(_ name: String, _ cin: Int, _ cout: Int) throws -> DPUnit {
            DPUnit(
                name: name,
                conv: PointwiseDepthwise(
                    pointwise: PointwiseConv(
                        weights: try w.tensor("\(name).conv1.weight", shape: [cout, cin, 1, 1]),
                        bias: try w.tensor("\(name).conv1.bias", shape: [cout]), inChannels: cin, outChannels: cout),
                    depthwise: DepthwiseConv(
                        weights: try w.tensor("\(name).conv2.weight", shape: [cout, 1, 3, 3]),
                        bias: try w.tensor("\(name).conv2.bias", shape: [cout]), channels: cout, stride: 1, activation: .relu)))
        }
        stem = Conv3x3(
            weights: try w.tensor("backbone.model0.conv1.weight", shape: [16, 3, 3, 3]),
            bias: try w.tensor("backbone.model0.conv1.bias", shape: [16]), inChannels: 3, outChannels: 16, stride: 2, activation: .relu)
        stages = [
            [try unit("backbone.model0.conv2", 16, 16)],
            [try unit("backbone.model1.conv1", 16, 16), try unit("backbone.model1.conv2", 16, 32)],
            [try unit("backbone.model2.conv1", 32, 32), try unit("backbone.model2.conv2", 32, 64)],
            [try unit("backbone.model3.conv1", 64, 64), try unit("backbone.model3.conv2", 64, 64)],
            [try unit("backbone.model4.conv1", 64, 64), try unit("backbone.model4.conv2", 64, 64)],
            [try unit("backbone.model5.conv1", 64, 64), try unit("backbone.model5.conv2", 64, 64)],
        ]
        laterals = try (0..<3).map { try unit("neck.lateral_convs.\($0)", 64, 64) }
        heads = try (0..<3).map { level in
            // Fused head: channel 0 cls, 1 obj, 2-5 bbox, 6-15 kps.
            let parts: [(String, Int)] = [("cls", 1), ("obj", 1), ("bbox", 4), ("kps", 10)]
            var pw: [Float] = [], pwBias: [Float] = [], dw: [Float] = [], dwBias: [Float] = []
            for (head, n) in parts {
                let p = "bbox_head.multi_level_\(head).\(level)"
                pw += try w.tensor("\(p).conv1.weight", shape: [n, 64, 1, 1])
                pwBias += try w.tensor("\(p).conv1.bias", shape: [n])
                dw += try w.tensor("\(p).conv2.weight", shape: [n, 1, 3, 3])
                dwBias += try w.tensor("\(p).conv2.bias", shape: [n])
            }
            return PointwiseDepthwise(
                pointwise: PointwiseConv(weights: pw, bias: pwBias, inChannels: 64, outChannels: 16),
                depthwise: DepthwiseConv(weights: dw, bias: dwBias, channels: 16, stride: 1))
        }
    }

    /// Runs the network on an image of any size, padded with zeros on the bottom and right to a
    /// multiple of 32 as FaceDetectorYN does (the padding is virtual: no copy). The image is fed
    /// as YuNet was trained: BGR order, values 0-255.
    package func run(_ image: RGBImage, profile: LayerProfile? = nil) -> [Level] {
        arenas.with(make: TensorArena.init) { arena in
            arena.reset()
            return image.pixels.withUnsafeBufferPointer { px in
                let input = ByteImage(
                    data: px.baseAddress!, width: image.width, height: image.height, order: [2, 1, 0],
                    paddedWidth: roundUp(image.width, to: 32), paddedHeight: roundUp(image.height, to: 32))
                return run(input, arena: arena, profile: profile)
            }
        }
    }

    private func run(_ input: ByteImage, arena: TensorArena, profile: LayerProfile?) -> [Level] {
        // Backbone maps read only by the next layer alternate between two buffers (at 640x640 they
        // are megabytes each; all of them at once would not fit in L3); stage 3-5 outputs are kept.
        var slot = 0
        func transient(_ h: Int, _ w: Int, _ c: Int) -> Tensor {
            defer { slot ^= 1 }
            return arena.alternating(slot, height: h, width: w, channels: c)
        }
        // Stage 0 is one unit, and only stage 1's pool reads it: the stem's rows go straight into
        // it and it writes the pooled map, so the stem's map (the largest, 320x320x16 at 640x640)
        // is never stored.
        var (h, w) = stem.outputShape(height: input.paddedHeight, width: input.paddedWidth)
        let first = stages[0][0]
        var x = transient(h / 2, w / 2, first.conv.depthwise.channels)
        profile.measure("backbone.model0.conv1+conv2+maxpool1", flops: (stem.flops + first.conv.flops) * h * w) {
            first.conv.run(stem.rows(input), intoPooled: x)
        }
        var features: [Tensor] = []
        var pooled = true  // the previous stage's last unit pooled its own output
        for (i, stage) in stages.enumerated().dropFirst() {
            if Self.pooledStages.contains(i) {
                h /= 2
                w /= 2
                if !pooled {
                    let out = transient(h, w, x.channels)
                    profile.measure("maxpool\(i)") { MaxPool2x2.run(x, into: out) }
                    x = out
                }
            }
            pooled = false
            for (j, u) in stage.enumerated() {
                let last = j == stage.count - 1
                let channels = u.conv.depthwise.channels
                if last && i >= 3 {
                    let out = arena.next(height: h, width: w, channels: channels)  // a pyramid input: kept
                    apply(u, x, into: out, profile)
                    x = out
                } else if last && Self.pooledStages.contains(i + 1) {
                    // Only the pool reads this map: the unit writes the pooled map directly.
                    let out = transient(h / 2, w / 2, channels)
                    profile.measure("\(u.name)+maxpool\(i + 1)", flops: u.conv.flops * x.pixelCount) { u.conv.run(x, intoPooled: out) }
                    x = out
                    pooled = true
                } else {
                    let out = transient(h, w, channels)
                    apply(u, x, into: out, profile)
                    x = out
                }
            }
            if i >= 3 { features.append(x) }
        }
        // Top-down pyramid: stride 32, then 16 and 8 with the coarser level added in.
        var pyramid = [Tensor](repeating: x, count: 3)
        pyramid[2] = apply(laterals[2], features[2], arena, profile)
        for level in [1, 0] {
            let sum = arena.next(height: features[level].height, width: features[level].width, channels: 64)
            profile.measure("upsample-add\(level)") { UpsampleAdd.run(skip: features[level], coarse: pyramid[level + 1], into: sum) }
            pyramid[level] = apply(laterals[level], sum, arena, profile)
        }
        return (0..<3).map { level in
            let f = pyramid[level]
            let out = arena.next(height: f.height, width: f.width, channels: 16)
            profile.measure("head\(level)", flops: heads[level].flops * f.pixelCount) { heads[level].run(f, into: out) }
            return Self.split(out, stride: Self.strides[level])
        }
    }

    private func apply(_ u: DPUnit, _ x: Tensor, _ arena: TensorArena, _ profile: LayerProfile?) -> Tensor {
        let out = arena.next(height: x.height, width: x.width, channels: u.conv.depthwise.channels)
        apply(u, x, into: out, profile)
        return out
    }

    private func apply(_ u: DPUnit, _ x: Tensor, into out: Tensor, _ profile: LayerProfile?) {
        profile.measure(u.name, flops: u.conv.flops * x.pixelCount) { u.conv.run(x, into: out) }
    }

    private static func split(_ t: Tensor, stride: Int) -> Level {
        let n = t.pixelCount
        var level = Level(
            stride: stride, rows: t.height, cols: t.width,
            cls: [Float](repeating: 0, count: n), obj: [Float](repeating: 0, count: n),
            bbox: [Float](repeating: 0, count: 4 * n), kps: [Float](repeating: 0, count: 10 * n))
        for p in 0..<n {
            let v = t.data + p * t.pixelStride
            level.cls[p] = sigmoid(v[clsChannel])
            level.obj[p] = sigmoid(v[objChannel])
            for (j, c) in bboxChannels.enumerated() { level.bbox[p * 4 + j] = v[c] }
            for (j, c) in kpsChannels.enumerated() { level.kps[p * 10 + j] = v[c] }
        }
        return level
    }

    @inline(__always) static func sigmoid(_ x: Float) -> Float { 1 / (1 + Foundation.exp(-x)) }
}
