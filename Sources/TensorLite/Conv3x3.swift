/// Dense 3x3 convolution, padding 1, stride 1 or 2: the first layer of both networks, where the
/// input has only 3 channels. A few output rows at a time are unfolded into patches of
/// 9 * inChannels values (im2col), which then go through the pointwise GEMM: with so few input
/// channels a direct loop would spend its time on bounds checks rather than FMAs.
public struct Conv3x3: Sendable {
    public let inChannels: Int
    public let outChannels: Int
    public let stride: Int
    let gemm: PointwiseConv

    /// `weights` is `[out][in][3][3]`.
    public init(weights: [Float], bias: [Float]?, inChannels: Int, outChannels: Int, stride: Int, activation: Activation = .none) {
        precondition(weights.count == outChannels * inChannels * 9, "Conv3x3: \(weights.count) weights for \(outChannels)x\(inChannels)x3x3")
        precondition(stride == 1 || stride == 2, "Conv3x3: stride \(stride) unsupported")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.stride = stride
        // Patch order is (tap, inChannel), matching the unfolding below.
        let k = 9 * inChannels
        var reordered = [Float](repeating: 0, count: outChannels * k)
        for n in 0..<outChannels {
            for ci in 0..<inChannels {
                for t in 0..<9 { reordered[n * k + t * inChannels + ci] = weights[(n * inChannels + ci) * 9 + t] }
            }
        }
        gemm = PointwiseConv(weights: reordered, bias: bias, inChannels: k, outChannels: outChannels, activation: activation)
    }

    public var flops: Int { gemm.flops }

    public func outputShape(height: Int, width: Int) -> (height: Int, width: Int) {
        ((height - 1) / stride + 1, (width - 1) / stride + 1)
    }

    public func run(_ input: Tensor, into output: Tensor) {
        precondition(input.channels == inChannels, "Conv3x3: channel mismatch")
        let cin = inChannels, inS = input.pixelStride
        run(height: input.height, width: input.width, into: output) { y, x, dst in
            let src = input.data + (y * input.width + x) * inS
            for c in 0..<cin { dst[c] = src[c] }
        }
    }

    /// Straight from 8-bit pixels (the first layer of a network), converting while unfolding.
    public func run(_ image: ByteImage, into output: Tensor) {
        precondition(image.channels == inChannels, "Conv3x3: \(image.channels) image channels, expected \(inChannels)")
        let bpp = image.bytesPerPixel, order = image.order, cin = inChannels
        let scale = image.scale, offset = image.offset
        let zero: Float = 0
        run(height: image.paddedHeight, width: image.paddedWidth, into: output) { y, x, dst in
            if y >= image.height || x >= image.width {
                for c in 0..<cin { dst[c] = zero }
            } else {
                let src = image.data + (y * image.width + x) * bpp
                for c in 0..<cin { dst[c] = (Float(src[order[c]]) + offset) * scale }
            }
        }
    }

    /// Unfolds a few output rows at a time into patches (`load` fills one input pixel's channels)
    /// and multiplies them through the GEMM; positions outside the map are zero.
    @inline(__always)
    private func run(height H: Int, width W: Int, into output: Tensor, load: (Int, Int, UnsafeMutablePointer<Float>) -> Void) {
        let (oh, ow) = outputShape(height: H, width: W)
        precondition(output.channels == outChannels, "Conv3x3: channel mismatch")
        precondition(output.height == oh && output.width == ow, "Conv3x3: output must be \(oh)x\(ow)")
        let cin = inChannels
        let k = 9 * cin
        let rowsPerChunk = max(1, 256 / ow)
        let patches = AlignedFloats(count: rowsPerChunk * ow * k)
        var oy0 = 0
        while oy0 < oh {
            let rows = min(rowsPerChunk, oh - oy0)
            for r in 0..<rows {
                let oy = oy0 + r
                for ox in 0..<ow {
                    let patch = patches.data + (r * ow + ox) * k
                    for dy in 0..<3 {
                        let y = oy * stride - 1 + dy
                        for dx in 0..<3 {
                            let x = ox * stride - 1 + dx
                            let dst = patch + (dy * 3 + dx) * cin
                            if y < 0 || y >= H || x < 0 || x >= W {
                                for c in 0..<cin { dst[c] = 0 }
                            } else {
                                load(y, x, dst)
                            }
                        }
                    }
                }
            }
            gemm.runPixels(input: patches.data, inputStride: k, output: output.data + oy0 * ow * output.pixelStride,
                           outputStride: output.pixelStride, pixels: rows * ow)
            oy0 += rows
        }
    }

    /// Plain scalar reference on unpadded channels-last values.
    public static func reference(input: [Float], height: Int, width: Int, inChannels: Int, weights: [Float], bias: [Float]?,
                                 outChannels: Int, stride: Int, activation: Activation = .none) -> [Float] {
        let oh = (height - 1) / stride + 1, ow = (width - 1) / stride + 1
        var out = [Float](repeating: 0, count: oh * ow * outChannels)
        for oy in 0..<oh {
            for ox in 0..<ow {
                for n in 0..<outChannels {
                    var s: Float = bias?[n] ?? 0
                    for ci in 0..<inChannels {
                        for dy in 0..<3 {
                            for dx in 0..<3 {
                                let y = oy * stride - 1 + dy, x = ox * stride - 1 + dx
                                if y < 0 || y >= height || x < 0 || x >= width { continue }
                                s += input[(y * width + x) * inChannels + ci] * weights[((n * inChannels + ci) * 3 + dy) * 3 + dx]
                            }
                        }
                    }
                    out[(oy * ow + ox) * outChannels + n] = activation.apply(s, channel: n)
                }
            }
        }
        return out
    }
}
