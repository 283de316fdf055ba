#if GLIMT_AVXVNNI
import _Builtin_intrinsics.intel

/// The int8 tile of the AVX2 build with AVX-VNNI (`vpdpbusd` on ymm registers: Alder Lake and
/// later Intel cores): half a panel at a time, 6 pixels x 16 channels. The 12 integer sums fill
/// the registers with the weights and an input, so the float accumulators wait in L1 between
/// blocks.
extension QuantizedPointwiseConv {
    private typealias Half = SIMD8<Float>

    /// As the AVX-512 build's, eight values at a time: the same bytes and facts.
    func quantize(_ x: UnsafePointer<Float>, _ stride: Int, _ pixels: Int, into q: UnsafeMutablePointer<UInt8>, facts: UnsafeMutablePointer<Float>) {
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

    func gemm(_ q: UnsafePointer<UInt8>, _ facts: UnsafePointer<Float>, _ pixels: Int, _ output: UnsafeMutablePointer<Float>, _ outputStride: Int) {
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
    private func tiles(
        _ q: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ groupBytes: Int, _ facts: UnsafePointer<Float>, _ pixels: Int,
        _ output: UnsafeMutablePointer<Float>, _ outputStride: Int, _ n0: Int, _ f: UnsafeMutablePointer<Float>
    ) {
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
    private func tile6x16(
        _ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ groupBytes: Int, _ facts: UnsafePointer<Float>,
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
    private func tile1x16(
        _ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ groupBytes: Int, _ facts: UnsafePointer<Float>,
        _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
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
}
#endif
