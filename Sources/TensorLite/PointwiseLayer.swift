/// A 1x1 convolution as a GEMM over pixels, whichever arithmetic it runs in (`PointwiseConv` in
/// float, `QuantizedPointwiseConv` in int8), so a network and `DepthwisePointwise` take either.
public protocol PointwiseLayer: Sendable {
    var inChannels: Int { get }
    var outChannels: Int { get }
    /// Per output pixel.
    var flops: Int { get }
    /// `input` and `output` must have the same height and width.
    func run(_ input: Tensor, into output: Tensor)
    /// The GEMM over `pixels` pixels laid `inputStride` and `outputStride` floats apart.
    func runPixels(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int)
}

extension PointwiseConv: PointwiseLayer {}
extension QuantizedPointwiseConv: PointwiseLayer {}
