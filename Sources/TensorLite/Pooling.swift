/// Lane-wise maximum as one compare and blend (the standard library's pointwiseMax is not
/// lowered to a single vector instruction and made pooling 50x slower).
@inline(__always) func vmax(_ a: Vec, _ b: Vec) -> Vec { a.replacing(with: b, where: a .< b) }

/// 2x2 max pooling with stride 2 and no padding (odd edges are dropped, as ONNX's floor mode).
public enum MaxPool2x2 {
    public static func outputShape(height: Int, width: Int) -> (height: Int, width: Int) { (height / 2, width / 2) }

    public static func run(_ input: Tensor, into output: Tensor) {
        let (oh, ow) = outputShape(height: input.height, width: input.width)
        precondition(
            output.height == oh && output.width == ow && output.channels == input.channels, "MaxPool2x2: output must be \(oh)x\(ow)x\(input.channels)"
        )
        let s = input.pixelStride
        for oy in 0..<oh {
            for ox in 0..<ow {
                let a = input.pixel(2 * oy, 2 * ox), b = a + input.width * s
                let out = output.pixel(oy, ox)
                for c in stride(from: 0, to: s, by: laneCount) {
                    storeVec(vmax(vmax(loadVec(a + c), loadVec(a + s + c)), vmax(loadVec(b + c), loadVec(b + s + c))), out + c)
                }
            }
        }
    }

    public static func reference(input: [Float], height: Int, width: Int, channels: Int) -> [Float] {
        let oh = height / 2, ow = width / 2
        var out = [Float](repeating: 0, count: oh * ow * channels)
        for oy in 0..<oh {
            for ox in 0..<ow {
                for c in 0..<channels {
                    var m = -Float.infinity
                    for dy in 0..<2 { for dx in 0..<2 { m = max(m, input[((2 * oy + dy) * width + 2 * ox + dx) * channels + c]) } }
                    out[(oy * ow + ox) * channels + c] = m
                }
            }
        }
        return out
    }
}

/// `out = skip + upsample2x(coarse)`, nearest neighbour: the feature pyramid's top-down path,
/// fused so the upsampled map is never stored.
public enum UpsampleAdd {
    public static func run(skip: Tensor, coarse: Tensor, into output: Tensor) {
        precondition(skip.sameShape(output) && skip.channels == coarse.channels, "UpsampleAdd: shape mismatch")
        precondition(
            coarse.height * 2 == skip.height && coarse.width * 2 == skip.width,
            "UpsampleAdd: \(coarse.height)x\(coarse.width) does not double to \(skip.height)x\(skip.width)")
        let s = skip.pixelStride
        for y in 0..<skip.height {
            for x in 0..<skip.width {
                let a = skip.pixel(y, x), b = coarse.pixel(y / 2, x / 2), out = output.pixel(y, x)
                for c in stride(from: 0, to: s, by: laneCount) { storeVec(loadVec(a + c) + loadVec(b + c), out + c) }
            }
        }
    }

    public static func reference(skip: [Float], coarse: [Float], height: Int, width: Int, channels: Int) -> [Float] {
        var out = skip
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { out[(y * width + x) * channels + c] += coarse[((y / 2) * (width / 2) + x / 2) * channels + c] }
            }
        }
        return out
    }
}
