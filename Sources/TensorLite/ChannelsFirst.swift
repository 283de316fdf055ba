extension Tensor {
    /// Copies the map to channels-first order (`[channel][y][x]`, ONNX's NCHW flattening of one
    /// image), each channel times `scale[c]` when given: how a layer whose weights are laid out for
    /// NCHW (and cannot be permuted, e.g. int8 blocks that run along that order) reads it.
    /// `out` holds `channels * pixelCount` floats.
    public func copyChannelsFirst(scale: [Float]?, into out: UnsafeMutablePointer<Float>) {
        if let scale { precondition(scale.count == channels, "copyChannelsFirst: \(scale.count) scales for \(channels) channels") }
        let n = pixelCount
        for c in 0..<channels {
            let s = scale?[c] ?? 1
            let dst = out + c * n
            var src = UnsafePointer(data + c)
            for p in 0..<n {
                dst[p] = src.pointee * s
                src += pixelStride
            }
        }
    }
}
