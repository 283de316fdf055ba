#if GLIMT_AVX512 || GLIMT_AVXVNNI
import _Builtin_intrinsics.intel
#endif

/// 1x1 convolution in int8 arithmetic, from weights stored as int8 blocks (`w = (q - z) * s`, one
/// scale and zero point per block of inputs, as the ONNX model ships them): the products use the
/// weights exactly as the float network's dequantized ones, so the only rounding is the inputs'.
///
/// Each input pixel is quantized as the layer reads it, block by block (the weights' blocks), to
/// unsigned bytes over the block's own range (min(x, 0) to max(x, 0) in 255 steps d, zero point
/// zp): a pixel's result depends on nothing but that pixel, whatever batch or band it comes in;
/// a layer's inputs are PReLU outputs, mostly positive, with a few large channels, and a range per
/// block and sign keeps those from coarsening the rest. Per output, block by block, VNNI's
/// `vpdpbusd` sums `q * u` four pairs per 32-bit lane, exactly, and the block adds
///     d * s * sum q u  -  s * z * (d * sum (u - zp))  -  s * sum q * (d * zp)
/// to a float accumulator (s, z the weights' block scale and zero point; the input's `d`,
/// `d * sum (u - zp)` and `d * zp` kept beside its bytes). Plus the bias, through the activation,
/// that is the output.
///
/// Weights are packed into panels `[K / 4][width][4]`, the layout `vpdpbusd` reads: one 64-byte
/// load holds four inputs' weights for 16 output channels. The tile is 6 pixels x 32 channels: 12
/// integer sums for a block and 12 float accumulators across blocks (27 of the 32 registers).
/// The AVX2 build with AVX-VNNI (`vpdpbusd` on ymm registers: Alder Lake and later Intel cores)
/// runs half a panel at a time, 6 pixels x 16 channels: the 12 integer sums fill the registers
/// with the weights and an input, so the float accumulators wait in L1 between blocks. The
/// other AVX2 and the portable builds have only `reference`, which does the same integer sums
/// and the same float operations in the same order, one value at a time.
public struct QuantizedPointwiseConv: Sendable {
    public let inChannels: Int
    public let outChannels: Int
    public let blockSize: Int
    let blocks: Int
    /// Bytes per quantized input row and per packed weight row: `inChannels` rounded up to 16.
    let rowBytes: Int
    let paddedOut: Int
    let fullPanels: Int
    let narrowPanels: Int
    let packed: AlignedBytes
    /// `[block][paddedOut]`: the block's scale times the output's (a folded BatchNorm's).
    let blockScales: AlignedFloats
    /// `[block][paddedOut]`: `-z * scale`.
    let zeroTerms: AlignedFloats
    /// `[block][paddedOut]`: `-scale * sum_{k in block} q`.
    let weightSums: AlignedFloats
    let epilogue: Epilogue

    static let panel = 32
    /// Quantized input rows per step: they stay in L1 while every panel passes over them.
    static let chunkBytes = 32 << 10
    /// Pixels of a tile.
    static let tileRows = 6

    /// Whether this build has an int8 kernel (the AVX-512 build, which has VNNI, and the AVX2 build
    /// with AVX-VNNI); without it `run` is the reference, far slower than the float kernel, and
    /// only tests call it.
#if GLIMT_AVX512 || GLIMT_AVXVNNI
    public static let isFast = true
#else
    public static let isFast = false
#endif

    /// `q` is `[out][in]`; `scales` and `zeroPoints` are `[out][ceil(in / blockSize)]`, a weight
    /// being `(q - zeroPoint) * scale * outputScale[out]`; `blockSize` a multiple of 16.
    public init(q: [Int8], scales: [Float], zeroPoints: [Int8], blockSize: Int, outputScale: [Float]?, bias: [Float]?,
                inChannels: Int, outChannels: Int, activation: Activation = .none) {
        let blocks = (inChannels + blockSize - 1) / blockSize
        precondition(q.count == inChannels * outChannels, "QuantizedPointwiseConv: \(q.count) weights for \(outChannels)x\(inChannels)")
        precondition(scales.count == outChannels * blocks && zeroPoints.count == scales.count, "QuantizedPointwiseConv: \(scales.count) block scales for \(outChannels)x\(blocks) blocks")
        precondition(blockSize > 0 && blockSize % laneCount == 0, "QuantizedPointwiseConv: block size \(blockSize) is not a multiple of \(laneCount)")
        self.inChannels = inChannels
        self.outChannels = outChannels
        self.blockSize = blockSize
        self.blocks = blocks
        rowBytes = roundUp(inChannels, to: laneCount)
        paddedOut = roundUp(outChannels, to: laneCount)
        fullPanels = paddedOut / Self.panel
        narrowPanels = (paddedOut - fullPanels * Self.panel) / laneCount
        blockScales = AlignedFloats(count: blocks * paddedOut)
        zeroTerms = AlignedFloats(count: blocks * paddedOut)
        weightSums = AlignedFloats(count: blocks * paddedOut)
        for n in 0..<outChannels {
            for b in 0..<blocks {
                let s = scales[n * blocks + b] * (outputScale?[n] ?? 1)
                blockScales.data[b * paddedOut + n] = s
                zeroTerms.data[b * paddedOut + n] = -Float(zeroPoints[n * blocks + b]) * s
                var blockSum = 0
                for k in (b * blockSize)..<min(inChannels, (b + 1) * blockSize) { blockSum += Int(q[n * inChannels + k]) }
                weightSums.data[b * paddedOut + n] = -s * Float(blockSum)
            }
        }
        packed = AlignedBytes(count: paddedOut * rowBytes)
        var offset = 0
        var n0 = 0
        for width in Array(repeating: Self.panel, count: fullPanels) + Array(repeating: laneCount, count: narrowPanels) {
            for g in 0..<(rowBytes / 4) {
                for j in 0..<width where n0 + j < outChannels {
                    for r in 0..<4 where 4 * g + r < inChannels {
                        packed.data[offset + (g * width + j) * 4 + r] = q[(n0 + j) * inChannels + 4 * g + r]
                    }
                }
            }
            offset += width * rowBytes
            n0 += width
        }
        epilogue = Epilogue(bias: bias, activation: activation, channels: outChannels)
    }

    public var flops: Int { 2 * inChannels * outChannels }

    /// Floats kept per quantized input pixel: per block its step d, `d * sum (u - zp)` and `d * zp`.
    var pixelFacts: Int { 3 * blocks }

    /// The packed weight of output `n`, input `k`.
    func weight(_ n: Int, _ k: Int) -> Int8 {
        let full = fullPanels * Self.panel
        let (base, width, j) = n < full ? (n / Self.panel * Self.panel * rowBytes, Self.panel, n % Self.panel)
                                        : (full * rowBytes + (n - full) / laneCount * laneCount * rowBytes, laneCount, n % laneCount)
        return packed.data[base + ((k / 4) * width + j) * 4 + k % 4]
    }

    /// `input` and `output` must have the same height and width.
    public func run(_ input: Tensor, into output: Tensor) {
        precondition(input.channels == inChannels && output.channels == outChannels, "QuantizedPointwiseConv: channels \(input.channels)->\(output.channels), expected \(inChannels)->\(outChannels)")
        precondition(input.height == output.height && input.width == output.width, "QuantizedPointwiseConv: spatial size mismatch")
        runPixels(input: input.data, inputStride: input.pixelStride, output: output.data, outputStride: output.pixelStride, pixels: input.pixelCount)
    }

    /// A pixel's quantization from its smallest and largest values: what they are multiplied by,
    /// the step that undoes it (both 0 for an all-zero pixel) and the byte that stands for 0.
    @inline(__always) static func quantization(smallest: Float, largest: Float) -> (inverse: Float, step: Float, zero: Int32) {
        let low = min(smallest, 0), range = max(largest, 0) - low
        guard range > 0 else { return (0, 0, 0) }
        let inverse = 255 / range
        return (inverse, range / 255, Int32((-low * inverse).rounded(.toNearestOrEven)))
    }

    /// A block of a pixel's values as bytes (`values` in, `u` out) and its facts:
    /// `(d, d * sum (u - zp), d * zp)`.
    static func quantize(block values: UnsafeBufferPointer<Float>, into u: UnsafeMutableBufferPointer<Int32>) -> (Float, Float, Float) {
        var smallest: Float = 0, largest: Float = 0
        for x in values { smallest = min(smallest, x); largest = max(largest, x) }
        let (inverse, step, zero) = quantization(smallest: smallest, largest: largest)
        var offsets: Int32 = 0
        for (k, x) in values.enumerated() {
            u[k] = min(max(Int32((x * inverse).rounded(.toNearestOrEven)) + zero, 0), 255)
            offsets += u[k] - zero
        }
        return (step, step * Float(offsets), step * Float(zero))
    }

    /// The layer one value at a time: what the kernel computes, exactly.
    public func reference(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        var u = [Int32](repeating: 0, count: rowBytes)
        var facts = [(Float, Float, Float)](repeating: (0, 0, 0), count: blocks)
        for p in 0..<pixels {
            let x = input + p * inputStride
            u.withUnsafeMutableBufferPointer { u in
                for b in 0..<blocks {
                    let range = (b * blockSize)..<min(rowBytes, (b + 1) * blockSize)
                    facts[b] = Self.quantize(block: UnsafeBufferPointer(start: x + range.lowerBound, count: range.count),
                                             into: UnsafeMutableBufferPointer(rebasing: u[range]))
                }
            }
            let y = output + p * outputStride
            for n in 0..<paddedOut {
                var f: Float = 0
                for b in 0..<blocks {
                    var sum: Int32 = 0
                    for k in (b * blockSize)..<min(rowBytes, (b + 1) * blockSize) { sum &+= u[k] &* Int32(weight(n, k)) }
                    let (step, offsets, zero) = facts[b]
                    f = f.addingProduct(Float(sum) * step, blockScales.data[b * paddedOut + n])
                    f = f.addingProduct(offsets, zeroTerms.data[b * paddedOut + n])
                    f = f.addingProduct(zero, weightSums.data[b * paddedOut + n])
                }
                let v = f + epilogue.bias.data[n]
                y[n] = epilogue.kind == .none || v >= 0 ? v : epilogue.kind == .relu ? 0 : v * epilogue.slopes.data[n]
            }
        }
    }

#if GLIMT_AVX512 || GLIMT_AVXVNNI
    /// The GEMM over `pixels` pixels laid `inputStride` and `outputStride` floats apart.
    public func runPixels(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        let chunk = max(Self.tileRows, Self.chunkBytes / rowBytes / Self.tileRows * Self.tileRows)
        withUnsafeTemporaryAllocation(byteCount: chunk * rowBytes, alignment: 64) { rows in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: chunk * pixelFacts) { facts in
                let q = rows.baseAddress!.assumingMemoryBound(to: UInt8.self), f = facts.baseAddress!
                for p0 in stride(from: 0, to: pixels, by: chunk) {
                    let count = min(chunk, pixels - p0)
                    quantize(input + p0 * inputStride, inputStride, count, into: q, facts: f)
                    gemm(q, f, count, output + p0 * outputStride, outputStride)
                }
            }
        }
    }

    /// The k/4 groups of block `b`.
    @inline(__always) private func groups(_ b: Int) -> Range<Int> { (b * blockSize / 4)..<(min(rowBytes, (b + 1) * blockSize) / 4) }
#endif

#if GLIMT_AVX512
    private func quantize(_ x: UnsafePointer<Float>, _ stride: Int, _ pixels: Int, into q: UnsafeMutablePointer<UInt8>, facts: UnsafeMutablePointer<Float>) {
        let vectors = rowBytes / laneCount, perBlock = blockSize / laneCount
        let none = _mm512_setzero_si512(), top = _mm512_set1_epi32(255)
        for p in 0..<pixels {
            let row = x + p * stride, out = q + p * rowBytes, fact = facts + p * pixelFacts
            for b in 0..<blocks {
                let v0 = b * perBlock, v1 = min(vectors, v0 + perBlock)
                var low = Vec(), high = Vec()
                for v in v0..<v1 {
                    let a = loadVec(row + v * laneCount)
                    low = _mm512_min_ps(low, a)
                    high = _mm512_max_ps(high, a)
                }
                let (inverse, step, zero) = Self.quantization(smallest: _mm512_reduce_min_ps(low), largest: _mm512_reduce_max_ps(high))
                let inv = Vec(repeating: inverse), offset = _mm512_set1_epi32(zero)
                var offsets = _mm512_setzero_si512()
                for v in v0..<v1 {
                    let u = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(loadVec(row + v * laneCount) * inv), offset), none), top)
                    UnsafeMutableRawPointer(out + v * laneCount).storeBytes(of: _mm512_cvtepi32_epi8(u), as: __m128i.self)
                    offsets = _mm512_add_epi32(offsets, _mm512_sub_epi32(u, offset))
                }
                fact[3 * b] = step
                fact[3 * b + 1] = step * Float(_mm512_reduce_add_epi32(offsets))
                fact[3 * b + 2] = step * Float(zero)
            }
        }
    }

    private func gemm(_ q: UnsafePointer<UInt8>, _ facts: UnsafePointer<Float>, _ pixels: Int, _ output: UnsafeMutablePointer<Float>, _ outputStride: Int) {
        var w = UnsafePointer(packed.data)
        var n0 = 0
        let rows = Self.tileRows
        for _ in 0..<fullPanels {
            var p = 0
            while p + rows <= pixels {
                tile6x32(q + p * rowBytes, w, facts + p * pixelFacts, output + p * outputStride + n0, outputStride, n0)
                p += rows
            }
            while p < pixels {
                tile1x32(q + p * rowBytes, w, facts + p * pixelFacts, output + p * outputStride + n0, n0)
                p += 1
            }
            w += Self.panel * rowBytes
            n0 += Self.panel
        }
        for _ in 0..<narrowPanels {
            for p in 0..<pixels { tile1x16(q + p * rowBytes, w, facts + p * pixelFacts, output + p * outputStride + n0, n0) }
            w += laneCount * rowBytes
            n0 += laneCount
        }
    }

    /// Four input bytes as one 32-bit lane, in every lane.
    @inline(__always) private func broadcast(_ a: UnsafePointer<UInt8>) -> __m512i {
        _mm512_set1_epi32(UnsafeRawPointer(a).loadUnaligned(as: Int32.self))
    }

    @inline(__always) private func load(_ w: UnsafePointer<Int8>) -> __m512i { _mm512_loadu_si512(UnsafeRawPointer(w)) }

    /// One block's integer sums of 16 channels from `c` into their float accumulator, with the
    /// pixel's facts `k` for the block.
    @_transparent private func add(_ sum: __m512i, _ k: UnsafePointer<Float>, _ block: Int, channel c: Int, to f: Vec) -> Vec {
        let at = block * paddedOut + c
        let scaled = _mm512_cvtepi32_ps(sum) * Vec(repeating: k[0])
        let f1 = _mm512_fmadd_ps(scaled, loadVec(blockScales.data + at), f)
        let f2 = _mm512_fmadd_ps(Vec(repeating: k[1]), loadVec(zeroTerms.data + at), f1)
        return _mm512_fmadd_ps(Vec(repeating: k[2]), loadVec(weightSums.data + at), f2)
    }

    @inline(__always)
    private func tile6x32(_ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ facts: UnsafePointer<Float>,
                          _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int) {
        var f00 = Vec(), f01 = Vec(), f10 = Vec(), f11 = Vec(), f20 = Vec(), f21 = Vec()
        var f30 = Vec(), f31 = Vec(), f40 = Vec(), f41 = Vec(), f50 = Vec(), f51 = Vec()
        let r = rowBytes, a1 = a + r, a2 = a + 2 * r, a3 = a + 3 * r, a4 = a + 4 * r, a5 = a + 5 * r
        let k0 = facts, k1 = k0 + pixelFacts, k2 = k1 + pixelFacts, k3 = k2 + pixelFacts, k4 = k3 + pixelFacts, k5 = k4 + pixelFacts
        var wp = w
        for b in 0..<blocks {
            let z = _mm512_setzero_si512()
            var c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z, c40 = z, c41 = z, c50 = z, c51 = z
            for g in groups(b) {
                let w0 = load(wp), w1 = load(wp + 64)
                let k = 4 * g
                let b0 = broadcast(a + k); c00 = _mm512_dpbusd_epi32(c00, b0, w0); c01 = _mm512_dpbusd_epi32(c01, b0, w1)
                let b1 = broadcast(a1 + k); c10 = _mm512_dpbusd_epi32(c10, b1, w0); c11 = _mm512_dpbusd_epi32(c11, b1, w1)
                let b2 = broadcast(a2 + k); c20 = _mm512_dpbusd_epi32(c20, b2, w0); c21 = _mm512_dpbusd_epi32(c21, b2, w1)
                let b3 = broadcast(a3 + k); c30 = _mm512_dpbusd_epi32(c30, b3, w0); c31 = _mm512_dpbusd_epi32(c31, b3, w1)
                let b4 = broadcast(a4 + k); c40 = _mm512_dpbusd_epi32(c40, b4, w0); c41 = _mm512_dpbusd_epi32(c41, b4, w1)
                let b5 = broadcast(a5 + k); c50 = _mm512_dpbusd_epi32(c50, b5, w0); c51 = _mm512_dpbusd_epi32(c51, b5, w1)
                wp += 128
            }
            let k = 3 * b
            f00 = add(c00, k0 + k, b, channel: n0, to: f00); f01 = add(c01, k0 + k, b, channel: n0 + 16, to: f01)
            f10 = add(c10, k1 + k, b, channel: n0, to: f10); f11 = add(c11, k1 + k, b, channel: n0 + 16, to: f11)
            f20 = add(c20, k2 + k, b, channel: n0, to: f20); f21 = add(c21, k2 + k, b, channel: n0 + 16, to: f21)
            f30 = add(c30, k3 + k, b, channel: n0, to: f30); f31 = add(c31, k3 + k, b, channel: n0 + 16, to: f31)
            f40 = add(c40, k4 + k, b, channel: n0, to: f40); f41 = add(c41, k4 + k, b, channel: n0 + 16, to: f41)
            f50 = add(c50, k5 + k, b, channel: n0, to: f50); f51 = add(c51, k5 + k, b, channel: n0 + 16, to: f51)
        }
        let e = epilogue
        storeVec(e.apply(f00, channel: n0), out); storeVec(e.apply(f01, channel: n0 + 16), out + 16)
        let o1 = out + outStride
        storeVec(e.apply(f10, channel: n0), o1); storeVec(e.apply(f11, channel: n0 + 16), o1 + 16)
        let o2 = o1 + outStride
        storeVec(e.apply(f20, channel: n0), o2); storeVec(e.apply(f21, channel: n0 + 16), o2 + 16)
        let o3 = o2 + outStride
        storeVec(e.apply(f30, channel: n0), o3); storeVec(e.apply(f31, channel: n0 + 16), o3 + 16)
        let o4 = o3 + outStride
        storeVec(e.apply(f40, channel: n0), o4); storeVec(e.apply(f41, channel: n0 + 16), o4 + 16)
        let o5 = o4 + outStride
        storeVec(e.apply(f50, channel: n0), o5); storeVec(e.apply(f51, channel: n0 + 16), o5 + 16)
    }

    @inline(__always)
    private func tile1x32(_ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ facts: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n0: Int) {
        var f0 = Vec(), f1 = Vec()
        var wp = w
        for b in 0..<blocks {
            var c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512()
            for g in groups(b) {
                let bc = broadcast(a + 4 * g)
                c0 = _mm512_dpbusd_epi32(c0, bc, load(wp)); c1 = _mm512_dpbusd_epi32(c1, bc, load(wp + 64))
                wp += 128
            }
            f0 = add(c0, facts + 3 * b, b, channel: n0, to: f0)
            f1 = add(c1, facts + 3 * b, b, channel: n0 + 16, to: f1)
        }
        storeVec(epilogue.apply(f0, channel: n0), out); storeVec(epilogue.apply(f1, channel: n0 + 16), out + 16)
    }

    @inline(__always)
    private func tile1x16(_ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ facts: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n0: Int) {
        var f = Vec()
        var wp = w
        for b in 0..<blocks {
            var c = _mm512_setzero_si512()
            for g in groups(b) {
                c = _mm512_dpbusd_epi32(c, broadcast(a + 4 * g), load(wp))
                wp += 64
            }
            f = add(c, facts + 3 * b, b, channel: n0, to: f)
        }
        storeVec(epilogue.apply(f, channel: n0), out)
    }
#elseif GLIMT_AVXVNNI
    private typealias Half = SIMD8<Float>

    /// As the AVX-512 build's, eight values at a time: the same bytes and facts.
    private func quantize(_ x: UnsafePointer<Float>, _ stride: Int, _ pixels: Int, into q: UnsafeMutablePointer<UInt8>, facts: UnsafeMutablePointer<Float>) {
        let halves = rowBytes / Half.scalarCount, perBlock = blockSize / Half.scalarCount
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> Half { UnsafeRawPointer(p).loadUnaligned(as: Half.self) }
        for p in 0..<pixels {
            let row = x + p * stride, out = q + p * rowBytes, fact = facts + p * pixelFacts
            for b in 0..<blocks {
                let v0 = b * perBlock, v1 = min(halves, v0 + perBlock)
                var low = Half(), high = Half()
                for v in v0..<v1 {
                    let a = load(row + v * Half.scalarCount)
                    low = _mm256_min_ps(low, a)
                    high = _mm256_max_ps(high, a)
                }
                let (inverse, step, zero) = Self.quantization(smallest: low.min(), largest: high.max())
                let inv = Half(repeating: inverse), offset = SIMD8<Int32>(repeating: zero)
                var offsets = SIMD8<Int32>()
                for v in v0..<v1 {
                    let rounded = unsafeBitCast(_mm256_cvtps_epi32(_mm256_mul_ps(load(row + v * Half.scalarCount), inv)), to: SIMD8<Int32>.self)
                    let u = (rounded &+ offset).clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 255))
                    UnsafeMutableRawPointer(out + v * Half.scalarCount).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: u), as: SIMD8<UInt8>.self)
                    offsets &+= u &- offset
                }
                fact[3 * b] = step
                fact[3 * b + 1] = step * Float(offsets.wrappedSum())
                fact[3 * b + 2] = step * Float(zero)
            }
        }
    }

    private func gemm(_ q: UnsafePointer<UInt8>, _ facts: UnsafePointer<Float>, _ pixels: Int, _ output: UnsafeMutablePointer<Float>, _ outputStride: Int) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: Self.tileRows * laneCount) { sums in
            let f = sums.baseAddress!
            var w = UnsafePointer(packed.data)
            var n0 = 0
            // A full panel's two halves: 16 channels' four bytes of a group are 64 bytes, at the
            // start or the middle of the panel's 128.
            for _ in 0..<fullPanels {
                for half in 0..<2 { tiles(q, w + 64 * half, 4 * Self.panel, facts, pixels, output, outputStride, n0 + laneCount * half, f) }
                w += Self.panel * rowBytes
                n0 += Self.panel
            }
            for _ in 0..<narrowPanels {
                tiles(q, w, 4 * laneCount, facts, pixels, output, outputStride, n0, f)
                w += laneCount * rowBytes
                n0 += laneCount
            }
        }
    }

    /// 16 output channels from `n0` (their weights `w`, a group every `groupBytes`) for every pixel.
    @inline(__always)
    private func tiles(_ q: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ groupBytes: Int, _ facts: UnsafePointer<Float>, _ pixels: Int,
                       _ output: UnsafeMutablePointer<Float>, _ outputStride: Int, _ n0: Int, _ f: UnsafeMutablePointer<Float>) {
        var p = 0
        while p + Self.tileRows <= pixels {
            tile6x16(q + p * rowBytes, w, groupBytes, facts + p * pixelFacts, output + p * outputStride + n0, outputStride, n0, f)
            p += Self.tileRows
        }
        while p < pixels {
            tile1x16(q + p * rowBytes, w, groupBytes, facts + p * pixelFacts, output + p * outputStride + n0, n0)
            p += 1
        }
    }

    @inline(__always) private func broadcast(_ a: UnsafePointer<UInt8>) -> __m256i {
        _mm256_set1_epi32(UnsafeRawPointer(a).loadUnaligned(as: Int32.self))
    }

    @inline(__always) private func load(_ w: UnsafePointer<Int8>) -> __m256i { UnsafeRawPointer(w).loadUnaligned(as: __m256i.self) }

    @inline(__always) private func loadHalf(_ p: UnsafePointer<Float>) -> Half { UnsafeRawPointer(p).loadUnaligned(as: Half.self) }

    /// One block's integer sums of 8 channels from `c` into their float accumulator, with the
    /// pixel's facts `k` for the block: the AVX-512 build's operations, in its order.
    @_transparent private func add(_ sum: __m256i, _ k: UnsafePointer<Float>, _ block: Int, channel c: Int, to f: Half) -> Half {
        let at = block &* paddedOut &+ c
        let scaled = _mm256_mul_ps(_mm256_cvtepi32_ps(sum), Half(repeating: k[0]))
        let f1 = _mm256_fmadd_ps(scaled, loadHalf(blockScales.data + at), f)
        let f2 = _mm256_fmadd_ps(Half(repeating: k[1]), loadHalf(zeroTerms.data + at), f1)
        return _mm256_fmadd_ps(Half(repeating: k[2]), loadHalf(weightSums.data + at), f2)
    }

    /// `f`: the tile's float accumulators, 6 pixels x 16 channels.
    @inline(__always)
    private func tile6x16(_ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ groupBytes: Int, _ facts: UnsafePointer<Float>,
                          _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int, _ f: UnsafeMutablePointer<Float>) {
        let r = rowBytes, a1 = a + r, a2 = a + 2 * r, a3 = a + 3 * r, a4 = a + 4 * r, a5 = a + 5 * r
        let h = Half.scalarCount
        let pf = pixelFacts
        @inline(__always) func fold(_ c: __m256i, _ pixel: Int, _ half: Int, _ b: Int) {
            let at = f + (pixel &* laneCount &+ half &* h)
            let sum = add(c, facts + (pixel &* pf &+ 3 &* b), b, channel: n0 &+ half &* h, to: loadHalf(at))
            UnsafeMutableRawPointer(at).storeBytes(of: sum, as: Half.self)
        }
        f.update(repeating: 0, count: Self.tileRows * laneCount)
        var wp = w
        for b in 0..<blocks {
            let z = _mm256_setzero_si256()
            var c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z, c40 = z, c41 = z, c50 = z, c51 = z
            for g in groups(b) {
                let w0 = load(wp), w1 = load(wp + 32)
                let k = 4 * g
                let b0 = broadcast(a + k); c00 = _mm256_dpbusd_avx_epi32(c00, b0, w0); c01 = _mm256_dpbusd_avx_epi32(c01, b0, w1)
                let b1 = broadcast(a1 + k); c10 = _mm256_dpbusd_avx_epi32(c10, b1, w0); c11 = _mm256_dpbusd_avx_epi32(c11, b1, w1)
                let b2 = broadcast(a2 + k); c20 = _mm256_dpbusd_avx_epi32(c20, b2, w0); c21 = _mm256_dpbusd_avx_epi32(c21, b2, w1)
                let b3 = broadcast(a3 + k); c30 = _mm256_dpbusd_avx_epi32(c30, b3, w0); c31 = _mm256_dpbusd_avx_epi32(c31, b3, w1)
                let b4 = broadcast(a4 + k); c40 = _mm256_dpbusd_avx_epi32(c40, b4, w0); c41 = _mm256_dpbusd_avx_epi32(c41, b4, w1)
                let b5 = broadcast(a5 + k); c50 = _mm256_dpbusd_avx_epi32(c50, b5, w0); c51 = _mm256_dpbusd_avx_epi32(c51, b5, w1)
                wp += groupBytes
            }
            fold(c00, 0, 0, b); fold(c01, 0, 1, b); fold(c10, 1, 0, b); fold(c11, 1, 1, b); fold(c20, 2, 0, b); fold(c21, 2, 1, b)
            fold(c30, 3, 0, b); fold(c31, 3, 1, b); fold(c40, 4, 0, b); fold(c41, 4, 1, b); fold(c50, 5, 0, b); fold(c51, 5, 1, b)
        }
        let e = epilogue
        for i in 0..<Self.tileRows { storeVec(e.apply(loadVec(f + i * laneCount), channel: n0), out + i * outStride) }
    }

    @inline(__always)
    private func tile1x16(_ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ groupBytes: Int, _ facts: UnsafePointer<Float>,
                          _ out: UnsafeMutablePointer<Float>, _ n0: Int) {
        var f0 = Half(), f1 = Half()
        var wp = w
        for b in 0..<blocks {
            var c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256()
            for g in groups(b) {
                let bc = broadcast(a + 4 * g)
                c0 = _mm256_dpbusd_avx_epi32(c0, bc, load(wp)); c1 = _mm256_dpbusd_avx_epi32(c1, bc, load(wp + 32))
                wp += groupBytes
            }
            f0 = add(c0, facts + 3 * b, b, channel: n0, to: f0)
            f1 = add(c1, facts + 3 * b, b, channel: n0 + Half.scalarCount, to: f1)
        }
        storeVec(epilogue.apply(Vec(lowHalf: f0, highHalf: f1), channel: n0), out)
    }
#else
    public func runPixels(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        reference(input: input, inputStride: inputStride, output: output, outputStride: outputStride, pixels: pixels)
    }
#endif
}
