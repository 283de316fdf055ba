/// Unfolds a map into its convolution patches: output pixel (y, x) holds the `size` x `size` patch of
/// the input whose top-left tap is at (y * stride - padTop, x * stride - padLeft), its values in
/// (row, column, channel) order, zero where a tap falls outside the map. A convolution of any size
/// and stride is then a pointwise conv over the patches, with weights `[out][row][column][in]`, so it
/// runs in the pointwise GEMM. Copying costs one pass over the input per tap, little beside the GEMM
/// for the kernels this is for: a stride equal to the size (patches that do not overlap, each input
/// value copied once), or a first layer of few channels.
public struct Patches: Sendable {
    public let size: Int
    public let stride: Int
    public let padTop: Int
    public let padLeft: Int
    public let inChannels: Int

    public init(size: Int, stride: Int, padTop: Int = 0, padLeft: Int = 0, inChannels: Int) {
        precondition(size >= 1 && stride >= 1 && padTop >= 0 && padLeft >= 0 && inChannels >= 1, "Patches: bad geometry")
        self.size = size
        self.stride = stride
        self.padTop = padTop
        self.padLeft = padLeft
        self.inChannels = inChannels
    }

    /// Channels of the output: one per tap and input channel.
    public var outChannels: Int { size * size * inChannels }

    /// Output size for an input of `height` x `width` with `padBottom`/`padRight` zeros beyond it.
    public func outputShape(height: Int, width: Int, padBottom: Int = 0, padRight: Int = 0) -> (height: Int, width: Int) {
        ((height + padTop + padBottom - size) / stride + 1, (width + padLeft + padRight - size) / stride + 1)
    }

    /// `output`'s height and width say how many patches to take (taps below or right of the input
    /// read zeros).
    public func run(_ input: Tensor, into output: Tensor) {
        precondition(input.channels == inChannels && output.channels == outChannels, "Patches: channels \(input.channels)->\(output.channels)")
        let C = inChannels, S = output.pixelStride, k = size
        // Whole vectors at a time when every tap's channels are a whole number of them; otherwise
        // value by value (a first layer of 3 channels).
        let vectors = C % laneCount == 0
        for oy in 0..<output.height {
            for ox in 0..<output.width {
                let out = output.pixel(oy, ox)
                for ky in 0..<k {
                    let iy = oy * stride - padTop + ky
                    for kx in 0..<k {
                        let ix = ox * stride - padLeft + kx
                        let dst = out + (ky * k + kx) * C
                        guard iy >= 0 && iy < input.height && ix >= 0 && ix < input.width else {
                            dst.update(repeating: 0, count: C)
                            continue
                        }
                        let src = input.pixel(iy, ix)
                        if vectors {
                            for c in Swift.stride(from: 0, to: C, by: laneCount) { storeVec(loadVec(src + c), dst + c) }
                        } else {
                            dst.update(from: src, count: C)
                        }
                    }
                }
                // The padding lanes stay zero, as every kernel expects.
                (out + k * k * C).update(repeating: 0, count: S - k * k * C)
            }
        }
    }

    /// The same on plain channels-last values (`height * width * inChannels` floats), for the tests.
    public func reference(input: [Float], height: Int, width: Int, outHeight: Int, outWidth: Int) -> [Float] {
        var out = [Float](repeating: 0, count: outHeight * outWidth * outChannels)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for ky in 0..<size {
                    for kx in 0..<size {
                        let iy = oy * stride - padTop + ky, ix = ox * stride - padLeft + kx
                        guard iy >= 0 && iy < height && ix >= 0 && ix < width else { continue }
                        for c in 0..<inChannels {
                            out[((oy * outWidth + ox) * size * size + ky * size + kx) * inChannels + c] = input[(iy * width + ix) * inChannels + c]
                        }
                    }
                }
            }
        }
        return out
    }
}
