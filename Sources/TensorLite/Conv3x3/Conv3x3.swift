/// Dense 3x3 convolution, padding 1, stride 1 or 2, straight from 8-bit pixels: the first layer
/// of both networks. With only 3 input channels an unfolding (im2col) GEMM would spend its time
/// copying patches, so the kernel multiplies straight from converted input rows. The tiles are
/// one file per register tile and instruction set beside this one (docs/architecture.md): 3
/// input channels (every stem) take `pixelTile` pixels x 16 channels, 8 on AVX-512 and 6 on
/// AVX2 and portable builds; other channel counts 4 pixels x 32 channels in every build.
public struct Conv3x3: Sendable {
    public let inChannels: Int
    public let outChannels: Int
    public let stride: Int
    /// `[tap][inChannel][paddedOut]`, the order of a patch's values within the converted rows.
    let direct: AlignedFloats
    let paddedOut: Int
    let epilogue: Epilogue

    /// `weights` is `[out][in][3][3]`.
    public init(weights: [Float], bias: [Float]?, inChannels: Int, outChannels: Int, stride: Int, activation: Activation = .none) {
        precondition(weights.count == outChannels * inChannels * 9, "Conv3x3: \(weights.count) weights for \(outChannels)x\(inChannels)x3x3")
        precondition(stride == 1 || stride == 2, "Conv3x3: stride \(stride) unsupported")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.stride = stride
        paddedOut = roundUp(outChannels, to: laneCount)
        direct = AlignedFloats(count: 9 * inChannels * paddedOut)
        for n in 0..<outChannels {
            for ci in 0..<inChannels {
                for t in 0..<9 { direct.data[(t * inChannels + ci) * paddedOut + n] = weights[(n * inChannels + ci) * 9 + t] }
            }
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: outChannels)
    }

    /// Per output pixel.
    public var flops: Int { 2 * 9 * inChannels * outChannels }

    public func outputShape(height: Int, width: Int) -> (height: Int, width: Int) {
        ((height - 1) / stride + 1, (width - 1) / stride + 1)
    }

    /// Three input rows at a time are converted to floats with a zero column on each side; a
    /// patch's nine values for one kernel row are then contiguous, so 4-pixel tiles multiply
    /// straight from the rows.
    public func run(_ image: ByteImage, into output: Tensor) {
        let (oh, ow) = outputShape(height: image.paddedHeight, width: image.paddedWidth)
        precondition(
            output.channels == outChannels && output.height == oh && output.width == ow, "Conv3x3: output must be \(oh)x\(ow)x\(outChannels)")
        let rows = Rows(self, image)
        for oy in 0..<oh { rows.row(oy, into: output.data + oy * ow * output.pixelStride, pixelStride: output.pixelStride) }
    }

    /// The output one row at a time, for a consumer that takes rows as they are made, so the
    /// whole output map (megabytes for a detector's input) is never stored.
    public func rows(_ image: ByteImage) -> Rows { Rows(self, image) }

    /// Output rows of one image, made on request; rows are asked for top to bottom.
    public final class Rows {
        let conv: Conv3x3
        let image: ByteImage
        public let height: Int
        public let width: Int
        public var channels: Int { conv.outChannels }
        let rowLength: Int
        /// Converted rows, four slots keyed by input row: consecutive output rows share rows.
        let rows: AlignedFloats
        var slotRow = [Int](repeating: Int.min, count: 4)
        let order: UnsafeMutablePointer<Int>
        let rgbWeights: AlignedFloats

        init(_ conv: Conv3x3, _ image: ByteImage) {
            precondition(image.channels == conv.inChannels, "Conv3x3: \(image.channels) image channels, expected \(conv.inChannels)")
            self.conv = conv
            self.image = image
            (height, width) = conv.outputShape(height: image.paddedHeight, width: image.paddedWidth)
            let cin = conv.inChannels
            rowLength = (image.paddedWidth + 2) * cin + Conv3x3.pixelTile * conv.stride * cin  // slack so the last tile may read past the edge
            rows = AlignedFloats(count: 4 * rowLength)
            order = UnsafeMutablePointer<Int>.allocate(capacity: cin)
            for c in 0..<cin { order[c] = image.order[c] }
            // Three bytes per pixel in another order than the network's (BGR for YuNet): rows are
            // converted in memory order, a plain loop LLVM vectorises, and the order goes into a
            // copy of the weights instead (the per-pixel shuffle was an eighth of the stem's time).
            if cin == 3 && image.bytesPerPixel == 3 && image.order.sorted() == [0, 1, 2] && image.order != [0, 1, 2] {
                let po = conv.paddedOut
                rgbWeights = AlignedFloats(count: conv.direct.count)
                for t in 0..<9 {
                    for c in 0..<3 {
                        (rgbWeights.data + (t * 3 + order[c]) * po).update(from: conv.direct.data + (t * 3 + c) * po, count: po)
                    }
                }
                for c in 0..<3 { order[c] = c }
            } else {
                rgbWeights = conv.direct
            }
        }

        deinit { order.deallocate() }

        /// Input row `y` converted, from its slot.
        private func input(_ y: Int) -> UnsafeMutablePointer<Float> {
            let slot = (y + 1) & 3
            let dst = rows.data + slot * rowLength
            if slotRow[slot] == y { return dst }
            slotRow[slot] = y
            guard y >= 0 && y < image.height else {
                dst.update(repeating: 0, count: rowLength)
                return dst
            }
            let cin = conv.inChannels, bpp = image.bytesPerPixel, scale = image.scale, offset = image.offset
            let src = image.data + y * image.width * bpp
            // Only the padding is zeroed; the picture's values are written once, below.
            dst.update(repeating: 0, count: cin)
            (dst + (image.width + 1) * cin).update(repeating: 0, count: rowLength - (image.width + 1) * cin)
            // The common layouts as plain loops over bytes, which LLVM vectorises (the general
            // loop below, one value at a time through `order`, was a tenth of YuNet's time).
            if cin == 3 && bpp == 3 && order[0] == 0 && order[1] == 1 && order[2] == 2 {
                let d = dst + 3
                for i in 0..<(3 * image.width) { d[i] = (Float(src[i]) + offset) * scale }
            } else if cin == 3 {
                let o0 = order[0], o1 = order[1], o2 = order[2]
                for x in 0..<image.width {
                    let p = src + x * bpp, d = dst + (x + 1) * 3
                    d[0] = (Float(p[o0]) + offset) * scale
                    d[1] = (Float(p[o1]) + offset) * scale
                    d[2] = (Float(p[o2]) + offset) * scale
                }
            } else {
                for x in 0..<image.width {
                    for c in 0..<cin { dst[(x + 1) * cin + c] = (Float(src[x * bpp + order[c]]) + offset) * scale }
                }
            }
            return dst
        }

        /// Output row `oy`, `width` pixels `pixelStride` floats apart from `out`.
        public func row(_ oy: Int, into out: UnsafeMutablePointer<Float>, pixelStride: Int) {
            let s = conv.stride, ow = width, paddedOut = conv.paddedOut
            let r0 = input(oy * s - 1), r1 = input(oy * s), r2 = input(oy * s + 1)
            if conv.inChannels == 3 {
                var ox = 0
                while ox < ow {
                    for n0 in Swift.stride(from: 0, to: paddedOut, by: laneCount) {
                        conv.tileRGB(r0, r1, r2, ox, min(Conv3x3.pixelTile, ow - ox), n0, out, pixelStride, rgbWeights.data)
                    }
                    ox += Conv3x3.pixelTile
                }
                return
            }
            var n0 = 0
            while n0 < paddedOut {
                let two = paddedOut - n0 >= 32
                var ox = 0
                while ox < ow {
                    conv.tile(r0, r1, r2, ox, min(4, ow - ox), n0, two, out, pixelStride)
                    ox += 4
                }
                n0 += two ? 32 : 16
            }
        }
    }
}
