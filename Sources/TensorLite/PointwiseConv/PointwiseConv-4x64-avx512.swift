#if GLIMT_AVX512
/// The AVX-512 build's tiles (32 registers of 16 floats): 4 pixels x 64 channels, 16
/// accumulators, over 64-wide panels; output channels that do not fill one go into 16-wide panels.
extension PointwiseConv {
    static let panel = 64

    @inline(__always)
    func gemm(input: UnsafePointer<Float>, inputStride: Int, output: UnsafeMutablePointer<Float>, outputStride: Int, pixels: Int) {
        let K = inChannels
        var w = UnsafePointer(packed.data)
        var n0 = 0
        for _ in 0..<fullPanels {
            var p = 0
            while p + 4 <= pixels {
                tile4x64(input + p * inputStride, inputStride, w, K, output + p * outputStride + n0, outputStride, n0)
                p += 4
            }
            while p < pixels {
                tile1x64(input + p * inputStride, w, K, output + p * outputStride + n0, n0)
                p += 1
            }
            w += Self.panel * K
            n0 += Self.panel
        }
        for _ in 0..<narrowPanels {
            var p = 0
            while p + 8 <= pixels {
                tile8x16(input + p * inputStride, inputStride, w, K, output + p * outputStride + n0, outputStride, n0)
                p += 8
            }
            while p + 4 <= pixels {
                tile4x16(input + p * inputStride, inputStride, w, K, output + p * outputStride + n0, outputStride, n0)
                p += 4
            }
            while p < pixels {
                tile1x16(input + p * inputStride, w, K, output + p * outputStride + n0, n0)
                p += 1
            }
            w += laneCount * K
            n0 += laneCount
        }
    }

    @inline(__always)
    private func tile4x64(
        _ a: UnsafePointer<Float>, _ aStride: Int, _ w: UnsafePointer<Float>, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int
    ) {
        var c00 = Vec(), c01 = Vec(), c02 = Vec(), c03 = Vec()
        var c10 = Vec(), c11 = Vec(), c12 = Vec(), c13 = Vec()
        var c20 = Vec(), c21 = Vec(), c22 = Vec(), c23 = Vec()
        var c30 = Vec(), c31 = Vec(), c32 = Vec(), c33 = Vec()
        let a0 = a, a1 = a + aStride, a2 = a + 2 * aStride, a3 = a + 3 * aStride
        var wp = w
        for k in 0..<K {
            let w0 = loadVec(wp), w1 = loadVec(wp + 16), w2 = loadVec(wp + 32), w3 = loadVec(wp + 48)
            let b0 = Vec(repeating: a0[k])
            c00.accumulate(b0, w0); c01.accumulate(b0, w1); c02.accumulate(b0, w2); c03.accumulate(b0, w3)
            let b1 = Vec(repeating: a1[k])
            c10.accumulate(b1, w0); c11.accumulate(b1, w1); c12.accumulate(b1, w2); c13.accumulate(b1, w3)
            let b2 = Vec(repeating: a2[k])
            c20.accumulate(b2, w0); c21.accumulate(b2, w1); c22.accumulate(b2, w2); c23.accumulate(b2, w3)
            let b3 = Vec(repeating: a3[k])
            c30.accumulate(b3, w0); c31.accumulate(b3, w1); c32.accumulate(b3, w2); c33.accumulate(b3, w3)
            wp += 64
        }
        let e = epilogue
        storeVec(e.apply(c00, channel: n0), out); storeVec(e.apply(c01, channel: n0 + 16), out + 16)
        storeVec(e.apply(c02, channel: n0 + 32), out + 32); storeVec(e.apply(c03, channel: n0 + 48), out + 48)
        let o1 = out + outStride
        storeVec(e.apply(c10, channel: n0), o1); storeVec(e.apply(c11, channel: n0 + 16), o1 + 16)
        storeVec(e.apply(c12, channel: n0 + 32), o1 + 32); storeVec(e.apply(c13, channel: n0 + 48), o1 + 48)
        let o2 = out + 2 * outStride
        storeVec(e.apply(c20, channel: n0), o2); storeVec(e.apply(c21, channel: n0 + 16), o2 + 16)
        storeVec(e.apply(c22, channel: n0 + 32), o2 + 32); storeVec(e.apply(c23, channel: n0 + 48), o2 + 48)
        let o3 = out + 3 * outStride
        storeVec(e.apply(c30, channel: n0), o3); storeVec(e.apply(c31, channel: n0 + 16), o3 + 16)
        storeVec(e.apply(c32, channel: n0 + 32), o3 + 32); storeVec(e.apply(c33, channel: n0 + 48), o3 + 48)
    }

    @inline(__always)
    private func tile1x64(
        _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec()
        var wp = w
        for k in 0..<K {
            let b = Vec(repeating: a[k])
            c0.accumulate(b, loadVec(wp)); c1.accumulate(b, loadVec(wp + 16))
            c2.accumulate(b, loadVec(wp + 32)); c3.accumulate(b, loadVec(wp + 48))
            wp += 64
        }
        let e = epilogue
        storeVec(e.apply(c0, channel: n0), out); storeVec(e.apply(c1, channel: n0 + 16), out + 16)
        storeVec(e.apply(c2, channel: n0 + 32), out + 32); storeVec(e.apply(c3, channel: n0 + 48), out + 48)
    }

    /// Eight pixels for a 16-wide panel: FMA latency is 4 cycles and there are two FMA units, so
    /// it takes 8 independent accumulators to keep both busy (4 ran at half speed on 16-channel maps).
    @inline(__always)
    private func tile8x16(
        _ a: UnsafePointer<Float>, _ aStride: Int, _ w: UnsafePointer<Float>, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int
    ) {
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec(), c4 = Vec(), c5 = Vec(), c6 = Vec(), c7 = Vec()
        let a0 = a, a1 = a + aStride, a2 = a + 2 * aStride, a3 = a + 3 * aStride
        let a4 = a + 4 * aStride, a5 = a + 5 * aStride, a6 = a + 6 * aStride, a7 = a + 7 * aStride
        var wp = w
        for k in 0..<K {
            let wv = loadVec(wp)
            c0.accumulate(Vec(repeating: a0[k]), wv); c1.accumulate(Vec(repeating: a1[k]), wv)
            c2.accumulate(Vec(repeating: a2[k]), wv); c3.accumulate(Vec(repeating: a3[k]), wv)
            c4.accumulate(Vec(repeating: a4[k]), wv); c5.accumulate(Vec(repeating: a5[k]), wv)
            c6.accumulate(Vec(repeating: a6[k]), wv); c7.accumulate(Vec(repeating: a7[k]), wv)
            wp += 16
        }
        let (bias, slope) = epilogue.vectors(channel: n0)
        let e = epilogue
        storeVec(e.apply(c0, bias: bias, slope: slope), out); storeVec(e.apply(c1, bias: bias, slope: slope), out + outStride)
        storeVec(e.apply(c2, bias: bias, slope: slope), out + 2 * outStride); storeVec(e.apply(c3, bias: bias, slope: slope), out + 3 * outStride)
        storeVec(e.apply(c4, bias: bias, slope: slope), out + 4 * outStride); storeVec(e.apply(c5, bias: bias, slope: slope), out + 5 * outStride)
        storeVec(e.apply(c6, bias: bias, slope: slope), out + 6 * outStride); storeVec(e.apply(c7, bias: bias, slope: slope), out + 7 * outStride)
    }

    @inline(__always)
    private func tile4x16(
        _ a: UnsafePointer<Float>, _ aStride: Int, _ w: UnsafePointer<Float>, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ n0: Int
    ) {
        var c0 = Vec(), c1 = Vec(), c2 = Vec(), c3 = Vec()
        let a0 = a, a1 = a + aStride, a2 = a + 2 * aStride, a3 = a + 3 * aStride
        var wp = w
        for k in 0..<K {
            let wv = loadVec(wp)
            c0.accumulate(Vec(repeating: a0[k]), wv); c1.accumulate(Vec(repeating: a1[k]), wv)
            c2.accumulate(Vec(repeating: a2[k]), wv); c3.accumulate(Vec(repeating: a3[k]), wv)
            wp += 16
        }
        let e = epilogue
        storeVec(e.apply(c0, channel: n0), out); storeVec(e.apply(c1, channel: n0), out + outStride)
        storeVec(e.apply(c2, channel: n0), out + 2 * outStride); storeVec(e.apply(c3, channel: n0), out + 3 * outStride)
    }

    @inline(__always)
    private func tile1x16(
        _ a: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ K: Int,
        _ out: UnsafeMutablePointer<Float>, _ n0: Int
    ) {
        var c0 = Vec()
        var wp = w
        for k in 0..<K {
            c0.accumulate(Vec(repeating: a[k]), loadVec(wp))
            wp += 16
        }
        storeVec(epilogue.apply(c0, channel: n0), out)
    }
}
#endif
