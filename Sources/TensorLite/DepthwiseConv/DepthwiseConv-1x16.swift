/// The sliding window every build has: one output pixel x 16 channels per step (one zmm
/// register; two ymm, or four xmm), for rows the build's tile does not fit.
extension DepthwiseConv {
    /// A channel group's 9 weights, bias and slope, and its three input rows.
    struct Window16 {
        typealias V = SIMD16<Float>
        typealias Column = (V, V, V)
        let k0: V, k1: V, k2: V, k3: V, k4: V, k5: V, k6: V, k7: V, k8: V
        let bias: V, slope: V
        let t: UnsafePointer<Float>, m: UnsafePointer<Float>, b: UnsafePointer<Float>
        let width: Int, inS: Int

        @inline(__always)
        init(
            _ conv: DepthwiseConv, channel c0: Int, _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
            _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int
        ) {
            let padded = roundUp(conv.channels, to: laneCount)
            let wp = UnsafePointer(conv.packed.data) + c0
            k0 = Self.load(wp); k1 = Self.load(wp + padded); k2 = Self.load(wp + 2 * padded)
            k3 = Self.load(wp + 3 * padded); k4 = Self.load(wp + 4 * padded); k5 = Self.load(wp + 5 * padded)
            k6 = Self.load(wp + 6 * padded); k7 = Self.load(wp + 7 * padded); k8 = Self.load(wp + 8 * padded)
            bias = Self.load(conv.epilogue.bias.data + c0); slope = Self.load(conv.epilogue.slopes.data + c0)
            t = UnsafePointer(top) + c0; m = UnsafePointer(mid) + c0; b = UnsafePointer(bottom) + c0
            width = W
            self.inS = inS
        }

        @inline(__always) static func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }

        /// Input column `x` of the three rows; zeros outside the row.
        @inline(__always) func column(_ x: Int) -> Column {
            guard x >= 0 && x < width else { return (V(), V(), V()) }
            let o = x &* inS
            return (Self.load(t + o), Self.load(m + o), Self.load(b + o))
        }

        /// The output from its three columns, its taps summed in `reference`'s order.
        @inline(__always) func output(_ c0v: Column, _ c1v: Column, _ c2v: Column) -> V {
            var acc = c0v.0 * k0
            acc.accumulate(c1v.0, k1); acc.accumulate(c2v.0, k2)
            acc.accumulate(c0v.1, k3); acc.accumulate(c1v.1, k4); acc.accumulate(c2v.1, k5)
            acc.accumulate(c0v.2, k6); acc.accumulate(c1v.2, k7); acc.accumulate(c2v.2, k8)
            return acc
        }
    }

    @inline(__always) static func store(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self)
    }

    /// Each step loads only the columns it does not share with the step before: 3 loads per
    /// output at stride 1, 6 at stride 2, for 9 FMAs.
    @inline(__always)
    func rowKernel16<S: DepthwiseStride>(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>,
        _ bottom: UnsafeMutablePointer<Float>, _ W: Int, _ inS: Int,
        _ output: UnsafeMutablePointer<Float>, _ outS: Int, _: S.Type
    ) {
        let s = S.step
        let ow = Self.outputSize(W, stride: s)
        let padded = roundUp(channels, to: laneCount)
        for c0 in Swift.stride(from: 0, to: padded, by: SIMD16<Float>.scalarCount) {
            let g = Window16(self, channel: c0, top, mid, bottom, W, inS)
            var c0v = g.column(-1), c1v = g.column(0), c2v = g.column(1)
            let outRow = output + c0
            for ox in 0..<ow {
                Self.store(epilogue.apply(g.output(c0v, c1v, c2v), bias: g.bias, slope: g.slope), outRow + ox &* outS)
                // The next output's first column is this one's second (stride 1) or third (stride 2).
                let next = (ox &+ 1) &* s &- 1
                if s == 1 {
                    c0v = c1v; c1v = c2v
                } else {
                    c0v = c2v; c1v = g.column(next &+ 1)
                }
                c2v = g.column(next &+ 2)
            }
        }
    }

    /// The window at the row's stride.
    @inline(__always)
    func rowKernel16(
        _ top: UnsafeMutablePointer<Float>, _ mid: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>,
        _ W: Int, _ inS: Int, _ output: UnsafeMutablePointer<Float>, _ outS: Int
    ) {
        if stride == 1 {
            rowKernel16(top, mid, bottom, W, inS, output, outS, StrideOne.self)
        } else {
            rowKernel16(top, mid, bottom, W, inS, output, outS, StrideTwo.self)
        }
    }
}
