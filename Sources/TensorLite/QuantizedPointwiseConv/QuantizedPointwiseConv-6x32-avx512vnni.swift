#if GLIMT_AVX512
import _Builtin_intrinsics.intel

/// The AVX-512 build's int8 tile: 6 pixels x 32 channels, 12 integer sums for a block and 12 float
/// accumulators across blocks (27 of the 32 registers), `vpdpbusd` on zmm registers.
extension QuantizedPointwiseConv {
    func quantize(_ x: UnsafePointer<Float>, _ stride: Int, _ pixels: Int, into q: UnsafeMutablePointer<UInt8>, facts: UnsafeMutablePointer<Float>) {
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
                    let u = _mm512_min_epi32(
                        _mm512_max_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(loadVec(row + v * laneCount) * inv), offset), none), top)
                    UnsafeMutableRawPointer(out + v * laneCount).storeBytes(of: _mm512_cvtepi32_epi8(u), as: __m128i.self)
                    offsets = _mm512_add_epi32(offsets, _mm512_sub_epi32(u, offset))
                }
                fact[3 * b] = step
                fact[3 * b + 1] = step * Float(_mm512_reduce_add_epi32(offsets))
                fact[3 * b + 2] = step * Float(zero)
            }
        }
    }

    func gemm(_ q: UnsafePointer<UInt8>, _ facts: UnsafePointer<Float>, _ pixels: Int, _ output: UnsafeMutablePointer<Float>, _ outputStride: Int) {
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
    private func tile6x32(
        _ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ facts: UnsafePointer<Float>,
        _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int
    ) {
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
    private func tile1x32(
        _ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ facts: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
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
    private func tile1x16(
        _ a: UnsafePointer<UInt8>, _ w: UnsafePointer<Int8>, _ facts: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
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
}
#endif
