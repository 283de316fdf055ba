/// What a layer applies to its output after adding the bias.
public enum Activation: Equatable, Sendable {
    case none
    case relu
    /// Leaky ReLU with one learned slope per output channel (negative side).
    case prelu([Float])

    /// Scalar form, used by the reference kernels.
    @inline(__always) public func apply(_ x: Float, channel: Int) -> Float {
        switch self {
        case .none: return x
        case .relu: return x > 0 ? x : 0
        case .prelu(let slopes): return x > 0 ? x : x * slopes[channel]
        }
    }
}

/// Bias plus activation, applied to a finished vector of 16 output channels just before it is
/// stored: fusing it into the kernels saves a pass over every feature map.
struct Epilogue: @unchecked Sendable {
    /// Read by kernels that pick a loop per activation once per call (`VectorActivation`): a
    /// branch per vector inside their loop split it and spilled registers.
    enum Kind { case none, relu, prelu }
    let kind: Kind
    let bias: AlignedFloats
    let slopes: AlignedFloats

    init(bias: [Float]?, activation: Activation, channels: Int) {
        let padded = roundUp(channels, to: laneCount)
        self.bias = AlignedFloats(count: padded)
        if let bias {
            precondition(bias.count == channels, "bias has \(bias.count) values for \(channels) channels")
            for i in 0..<channels { self.bias.data[i] = bias[i] }
        }
        slopes = AlignedFloats(count: padded)
        switch activation {
        case .none: kind = .none
        case .relu: kind = .relu
        case .prelu(let s):
            precondition(s.count == channels, "PReLU has \(s.count) slopes for \(channels) channels")
            kind = .prelu
            for i in 0..<channels { slopes.data[i] = s[i] }
        }
    }

    /// Bias and slope vectors of the 16 channels from `c`, for loops that keep them in registers.
    @inline(__always) func vectors(channel c: Int) -> (bias: Vec, slope: Vec) {
        (loadVec(bias.data + c), loadVec(slopes.data + c))
    }

    @inline(__always) func apply(_ v: Vec, bias: Vec, slope: Vec) -> Vec {
        let r = v + bias
        switch kind {
        case .none: return r
        case .relu: return r.replacing(with: 0, where: r .< 0)
        case .prelu: return r.replacing(with: r * slope, where: r .< 0)
        }
    }

    /// Half vectors, for kernels that work in AVX2 registers (8 floats).
    @inline(__always) func apply(_ v: SIMD8<Float>, bias: SIMD8<Float>, slope: SIMD8<Float>) -> SIMD8<Float> {
        let r = v + bias
        switch kind {
        case .none: return r
        case .relu: return r.replacing(with: 0, where: r .< 0)
        case .prelu: return r.replacing(with: r * slope, where: r .< 0)
        }
    }

    /// The same with the activation as a type: a kernel generic over it is specialised per
    /// activation, with no branch left in its loop.
    @inline(__always) func apply<A: VectorActivation>(_ v: SIMD8<Float>, bias: SIMD8<Float>, slope: SIMD8<Float>, as: A.Type) -> SIMD8<Float> {
        A.apply(v + bias, slope: slope)
    }

    @inline(__always) func apply<A: VectorActivation>(_ v: Vec, bias: Vec, slope: Vec, as: A.Type) -> Vec {
        A.apply(v + bias, slope: slope)
    }

    /// `c` is the first channel of the vector (a multiple of 16).
    @inline(__always) func apply(_ v: Vec, channel c: Int) -> Vec {
        let r = v + loadVec(bias.data + c)
        switch kind {
        case .none: return r
        case .relu: return r.replacing(with: 0, where: r .< 0)
        case .prelu: return r.replacing(with: r * loadVec(slopes.data + c), where: r .< 0)
        }
    }
}

/// `Epilogue.Kind` as types, for kernels specialised per activation: on half vectors (AVX2
/// registers) and whole ones.
protocol VectorActivation {
    static func apply(_ r: SIMD8<Float>, slope: SIMD8<Float>) -> SIMD8<Float>
    static func apply(_ r: Vec, slope: Vec) -> Vec
}

enum NoActivation: VectorActivation {
    @inline(__always) static func apply(_ r: SIMD8<Float>, slope: SIMD8<Float>) -> SIMD8<Float> { r }
    @inline(__always) static func apply(_ r: Vec, slope: Vec) -> Vec { r }
}

enum ReluActivation: VectorActivation {
    @inline(__always) static func apply(_ r: SIMD8<Float>, slope: SIMD8<Float>) -> SIMD8<Float> { r.replacing(with: 0, where: r .< 0) }
    @inline(__always) static func apply(_ r: Vec, slope: Vec) -> Vec { r.replacing(with: 0, where: r .< 0) }
}

enum PReluActivation: VectorActivation {
    @inline(__always) static func apply(_ r: SIMD8<Float>, slope: SIMD8<Float>) -> SIMD8<Float> { r.replacing(with: r * slope, where: r .< 0) }
    @inline(__always) static func apply(_ r: Vec, slope: Vec) -> Vec { r.replacing(with: r * slope, where: r .< 0) }
}
