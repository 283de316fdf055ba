#if GLIMT_AVX2 && !GLIMT_AVXVNNI
import _Builtin_intrinsics.intel

/// The int8 tile of the AVX2 build without VNNI (Haswell to Skylake, Zen 1 to 3, and AVX-512
/// without VNNI), 6 pixels x 16 channels as on AVX-VNNI. `vpmaddwd` multiplies 16-bit pairs and
/// adds each pair into a 32-bit lane, exactly, so the sums are the VNNI tiles' and every output is
/// theirs, bit for bit. Its operands are 16 bits wide: each input is quantized to the VNNI builds'
/// level and kept in 16 bits (two inputs are one 32-bit broadcast), and the weights, packed in
/// pairs (`[K / 2][width][2]`) but still a byte each (as few bytes to stream as the VNNI builds
/// read), are sign-extended as they are loaded (`vpmovsxbw`). A lane then holds one channel's sum
/// and a register eight channels in order, as `vpdpbusd`'s do, with no horizontal add at a
/// block's end. `vpmaddubsw` would multiply the bytes as they are, with a quarter fewer
/// instructions, but its 16-bit pair sums saturate on 8-bit inputs (255 x 128 x 2), and 7-bit
/// inputs, exact there, would round each input twice as coarsely as the VNNI builds do.
///
/// The 12 integer sums, two weight vectors and an input fill the 16 registers, so the float
/// accumulators wait in L1 between blocks, as on AVX-VNNI.
extension QuantizedPointwiseConv {
    private typealias Half = SIMD8<Float>

    /// As the VNNI builds', eight values at a time: the same levels and facts, each level in 16 bits.
    func quantize(_ x: UnsafePointer<Float>, _ stride: Int, _ pixels: Int, into q: UnsafeMutablePointer<UInt8>, facts: UnsafeMutablePointer<Float>) {
        let halves = rowBytes / Half.scalarCount, perBlock = blockSize / Half.scalarCount
        let levels = UnsafeMutableRawPointer(q)
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> Half { UnsafeRawPointer(p).loadUnaligned(as: Half.self) }
        for p in 0..<pixels {
            let row = x + p * stride, out = levels + 2 * p * rowBytes, fact = facts + p * pixelFacts
            for b in 0..<blocks {
                let v0 = b * perBlock, v1 = min(halves, v0 + perBlock)
                var low = Half(), high = Half()
                for v in v0..<v1 {
                    let a = load(row + v * Half.scalarCount)
                    low = _mm256_min_ps(low, a)
                    high = _mm256_max_ps(high, a)
                }
                let (inverse, step, zero) = Self.quantization(smallest: smallest(low), largest: largest(high))
                let inv = Half(repeating: inverse), offset = SIMD8<Int32>(repeating: zero)
                var offsets = SIMD8<Int32>()
                for v in v0..<v1 {
                    let rounded = unsafeBitCast(_mm256_cvtps_epi32(_mm256_mul_ps(load(row + v * Half.scalarCount), inv)), to: SIMD8<Int32>.self)
                    let u = (rounded &+ offset).clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 255))
                    out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: u), toByteOffset: 2 * v * Half.scalarCount, as: SIMD8<Int16>.self)
                    offsets &+= u &- offset
                }
                fact[3 * b] = step
                fact[3 * b + 1] = step * Float(offsets.wrappedSum())
                fact[3 * b + 2] = step * Float(zero)
            }
        }
    }

    /// A vector's least and greatest value, in registers (the standard library's `min()` and
    /// `max()` are calls here, and a quantized row of few channels pays for them).
    @inline(__always) private func smallest(_ v: Half) -> Float {
        let a = _mm_min_ps(v.lowHalf, v.highHalf), b = _mm_min_ps(a, _mm_movehl_ps(a, a))
        return _mm_min_ss(b, _mm_movehdup_ps(b))[0]
    }

    @inline(__always) private func largest(_ v: Half) -> Float {
        let a = _mm_max_ps(v.lowHalf, v.highHalf), b = _mm_max_ps(a, _mm_movehl_ps(a, a))
        return _mm_max_ss(b, _mm_movehdup_ps(b))[0]
    }

    func gemm(_ q: UnsafePointer<UInt8>, _ facts: UnsafePointer<Float>, _ pixels: Int, _ output: UnsafeMutablePointer<Float>, _ outputStride: Int) {
        let levels = UnsafeRawPointer(q).assumingMemoryBound(to: Int16.self)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: Self.tileRows * laneCount) { sums in
            let f = sums.baseAddress!
            var w = UnsafePointer(packed.data)
            var n0 = 0
            // A full panel's two halves: 16 channels' weights of a pair of inputs are 32 bytes, at
            // the start or the middle of the panel's 64.
            for _ in 0..<fullPanels {
                for half in 0..<2 { tiles(levels, w + 32 * half, 2 * Self.panel, facts, pixels, output, outputStride, n0 + laneCount * half, f) }
                w += Self.panel * rowBytes
                n0 += Self.panel
            }
            for _ in 0..<narrowPanels {
                tiles(levels, w, 2 * laneCount, facts, pixels, output, outputStride, n0, f)
                w += laneCount * rowBytes
                n0 += laneCount
            }
        }
    }

    /// 16 output channels from `n0` (their weights `w`, a pair of inputs every `pairStride`
    /// bytes) for every pixel.
    @inline(__always)
    private func tiles(
        _ q: UnsafePointer<Int16>, _ w: UnsafePointer<Int8>, _ pairStride: Int, _ facts: UnsafePointer<Float>, _ pixels: Int,
        _ output: UnsafeMutablePointer<Float>, _ outputStride: Int, _ n0: Int, _ f: UnsafeMutablePointer<Float>
    ) {
        var p = 0
        while p + Self.tileRows <= pixels {
            tile6x16(q + p * rowBytes, w, pairStride, facts + p * pixelFacts, output + p * outputStride + n0, outputStride, n0, f)
            p += Self.tileRows
        }
        while p < pixels {
            tile1x16(q + p * rowBytes, w, pairStride, facts + p * pixelFacts, output + p * outputStride + n0, n0)
            p += 1
        }
    }

    /// The pairs of inputs of block `b`.
    @inline(__always) private func pairs(_ b: Int) -> Range<Int> { (b * blockSize / 2)..<(min(rowBytes, (b + 1) * blockSize) / 2) }

    /// Two inputs, 16 bits each, in every 32-bit lane.
    @inline(__always) private func broadcast(_ a: UnsafePointer<Int16>) -> __m256i {
        _mm256_set1_epi32(UnsafeRawPointer(a).loadUnaligned(as: Int32.self))
    }

    /// Eight channels' weights of a pair of inputs, widened to 16 bits.
    @inline(__always) private func load(_ w: UnsafePointer<Int8>) -> __m256i {
        _mm256_cvtepi8_epi16(UnsafeRawPointer(w).loadUnaligned(as: __m128i.self))
    }

    /// `vpmaddwd` into a running sum.
    @inline(__always) private func madd(_ c: __m256i, _ a: __m256i, _ w: __m256i) -> __m256i {
        _mm256_add_epi32(c, _mm256_madd_epi16(a, w))
    }

    @inline(__always) private func loadHalf(_ p: UnsafePointer<Float>) -> Half { UnsafeRawPointer(p).loadUnaligned(as: Half.self) }

    /// One block's integer sums of 8 channels from `c` into their float accumulator, with the
    /// pixel's facts `k` for the block: the VNNI builds' operations, in their order.
    @_transparent private func add(_ sum: __m256i, _ k: UnsafePointer<Float>, _ block: Int, channel c: Int, to f: Half) -> Half {
        let at = block &* paddedOut &+ c
        let scaled = _mm256_mul_ps(_mm256_cvtepi32_ps(sum), Half(repeating: k[0]))
        let f1 = _mm256_fmadd_ps(scaled, loadHalf(blockScales.data + at), f)
        let f2 = _mm256_fmadd_ps(Half(repeating: k[1]), loadHalf(zeroTerms.data + at), f1)
        return _mm256_fmadd_ps(Half(repeating: k[2]), loadHalf(weightSums.data + at), f2)
    }

    /// `f`: the tile's float accumulators, 6 pixels x 16 channels.
    @inline(__always)
    private func tile6x16(
        _ a: UnsafePointer<Int16>, _ w: UnsafePointer<Int8>, _ pairStride: Int, _ facts: UnsafePointer<Float>,
        _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int, _ f: UnsafeMutablePointer<Float>
    ) {
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
            for i in pairs(b) {
                let w0 = load(wp), w1 = load(wp + 16)
                let k = 2 * i
                let b0 = broadcast(a + k); c00 = madd(c00, b0, w0); c01 = madd(c01, b0, w1)
                let b1 = broadcast(a1 + k); c10 = madd(c10, b1, w0); c11 = madd(c11, b1, w1)
                let b2 = broadcast(a2 + k); c20 = madd(c20, b2, w0); c21 = madd(c21, b2, w1)
                let b3 = broadcast(a3 + k); c30 = madd(c30, b3, w0); c31 = madd(c31, b3, w1)
                let b4 = broadcast(a4 + k); c40 = madd(c40, b4, w0); c41 = madd(c41, b4, w1)
                let b5 = broadcast(a5 + k); c50 = madd(c50, b5, w0); c51 = madd(c51, b5, w1)
                wp += pairStride
            }
            fold(c00, 0, 0, b); fold(c01, 0, 1, b); fold(c10, 1, 0, b); fold(c11, 1, 1, b); fold(c20, 2, 0, b); fold(c21, 2, 1, b)
            fold(c30, 3, 0, b); fold(c31, 3, 1, b); fold(c40, 4, 0, b); fold(c41, 4, 1, b); fold(c50, 5, 0, b); fold(c51, 5, 1, b)
        }
        let e = epilogue
        for i in 0..<Self.tileRows { storeVec(e.apply(loadVec(f + i * laneCount), channel: n0), out + i * outStride) }
    }

    @inline(__always)
    private func tile1x16(
        _ a: UnsafePointer<Int16>, _ w: UnsafePointer<Int8>, _ pairStride: Int, _ facts: UnsafePointer<Float>,
        _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
        var f0 = Half(), f1 = Half()
        var wp = w
        for b in 0..<blocks {
            var c0 = _mm256_setzero_si256(), c1 = _mm256_setzero_si256()
            for i in pairs(b) {
                let bc = broadcast(a + 2 * i)
                c0 = madd(c0, bc, load(wp)); c1 = madd(c1, bc, load(wp + 16))
                wp += pairStride
            }
            f0 = add(c0, facts + 3 * b, b, channel: n0, to: f0)
            f1 = add(c1, facts + 3 * b, b, channel: n0 + Half.scalarCount, to: f1)
        }
        storeVec(epilogue.apply(Vec(lowHalf: f0, highHalf: f1), channel: n0), out)
    }
}
#endif
