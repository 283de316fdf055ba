import Foundation

/// Fully connected layer over int8 weights with one float scale per block of inputs, for a batch:
/// y[f][o] = outScale[o] * sum_i x[f][i] * (q[o][i] * scale[o][i / block]) + bias[o].
///
/// A large layer read once per input is bound by memory bandwidth; int8 weights are a quarter of
/// the bytes of floats, and a batch reads them once for all its inputs. Weights are dequantized
/// in registers (convert, times the block's scale) and multiplied in float. Four output rows go
/// together over a chunk of inputs small enough to stay in L1 while every input of the batch
/// passes over it; partial sums wait in memory between chunks.
///
/// Each input's result does not depend on the batch it came in: every input gets the same
/// operations in the same order, whichever tile runs it.
public struct QuantizedFullyConnected: Sendable {
    public let inFeatures: Int
    public let outFeatures: Int
    public let blockSize: Int
    /// Floats per input row as `run` reads them: `inFeatures` values, then zeros.
    public let paddedInFeatures: Int
    let blocksPerRow: Int
    let weights: AlignedBytes   // [out][paddedInFeatures], zero past inFeatures
    let scales: AlignedFloats   // [out][blocksPerRow]
    let outScale: [Float]
    let bias: [Float]
    /// zero point x scale per [out][block], when any zero point is not 0: the kernel multiplies
    /// by the stored int8 and takes `Σ_b zs[o][b] * Σ_{i in b} x[i]` off afterwards, which is
    /// `Σ (q - z) s x` without widening the weights.
    let zeroScaled: [Float]?

    /// Inputs per chunk: 4 rows of int8 weights (16 KB) and an input's chunk (16 KB) fit in L1.
    static let chunkFeatures = 4096

    /// `weights` is `[out][in]` int8; `blockScales` and `zeroPoints` (nil: all 0) are
    /// `[out][ceil(in / blockSize)]`, a weight being `(q - zeroPoint) * scale`; `blockSize` must be
    /// a multiple of 16 (`laneCount`).
    public init(weights: [Int8], blockScales: [Float], zeroPoints: [Int8]? = nil, blockSize: Int, outputScale: [Float]?, bias: [Float]?,
                inFeatures: Int, outFeatures: Int) {
        precondition(weights.count == inFeatures * outFeatures, "QuantizedFullyConnected: \(weights.count) weights for \(outFeatures)x\(inFeatures)")
        precondition(blockSize > 0 && blockSize % laneCount == 0, "QuantizedFullyConnected: block size \(blockSize) is not a multiple of \(laneCount)")
        self.inFeatures = inFeatures
        self.outFeatures = outFeatures
        self.blockSize = blockSize
        blocksPerRow = (inFeatures + blockSize - 1) / blockSize
        precondition(blockScales.count == outFeatures * blocksPerRow, "QuantizedFullyConnected: \(blockScales.count) scales, expected \(outFeatures * blocksPerRow)")
        paddedInFeatures = blocksPerRow * blockSize
        let packed = AlignedBytes(count: outFeatures * paddedInFeatures), K = paddedInFeatures
        weights.withUnsafeBufferPointer { src in
            for o in 0..<outFeatures {
                (packed.data + o * K).update(from: src.baseAddress! + o * inFeatures, count: inFeatures)
            }
        }
        self.weights = packed
        self.scales = AlignedFloats(count: outFeatures * blocksPerRow)
        for i in 0..<blockScales.count { scales.data[i] = blockScales[i] }
        self.outScale = outputScale ?? [Float](repeating: 1, count: outFeatures)
        self.bias = bias ?? [Float](repeating: 0, count: outFeatures)
        precondition(self.outScale.count == outFeatures && self.bias.count == outFeatures, "QuantizedFullyConnected: output scale or bias count")
        if let zeroPoints, zeroPoints.contains(where: { $0 != 0 }) {
            precondition(zeroPoints.count == blockScales.count, "QuantizedFullyConnected: \(zeroPoints.count) zero points for \(blockScales.count) blocks")
            zeroScaled = zip(zeroPoints, blockScales).map { Float($0) * $1 }
        } else {
            zeroScaled = nil
        }
    }

    /// `x` holds `count` rows of `paddedInFeatures` floats (zeros past `inFeatures`); `y` gets
    /// `count` rows of `outFeatures`.
    public func run(_ x: UnsafePointer<Float>, count: Int, into y: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        let K = paddedInFeatures
        let vecsPerBlock = blockSize / laneCount
        let chunkBlocks = max(1, Self.chunkFeatures / blockSize)
        // Partial sums: one vector per (input, row of the group).
        let acc = AlignedFloats(count: count * 4 * laneCount)
        let blockSums = zeroScaled == nil ? nil : inputBlockSums(x, count: count)
        var o0 = 0
        while o0 < outFeatures {
            let rows = min(4, outFeatures - o0)
            // Past `rows` the group repeats its last row: a tail costs a whole group, no extra code.
            let row = (0..<4).map { o0 + min($0, rows - 1) }
            let q0 = UnsafePointer(weights.data + row[0] * K), q1 = UnsafePointer(weights.data + row[1] * K)
            let q2 = UnsafePointer(weights.data + row[2] * K), q3 = UnsafePointer(weights.data + row[3] * K)
            let s0 = UnsafePointer(scales.data + row[0] * blocksPerRow), s1 = UnsafePointer(scales.data + row[1] * blocksPerRow)
            let s2 = UnsafePointer(scales.data + row[2] * blocksPerRow), s3 = UnsafePointer(scales.data + row[3] * blocksPerRow)
            acc.data.update(repeating: 0, count: count * 4 * laneCount)
            var b0 = 0
            while b0 < blocksPerRow {
                let nb = min(chunkBlocks, blocksPerRow - b0)
                let i0 = b0 * blockSize
                var f = 0
#if GLIMT_AVX512
                while f + 4 <= count {
                    tile4x4(x + f * K + i0, K, q0 + i0, q1 + i0, q2 + i0, q3 + i0, s0 + b0, s1 + b0, s2 + b0, s3 + b0,
                            nb, vecsPerBlock, acc.data + f * 4 * laneCount)
                    f += 4
                }
#else
                while f + 2 <= count {
                    let a = acc.data + f * 4 * laneCount
                    tile2x2(x + f * K + i0, K, q0 + i0, q1 + i0, s0 + b0, s1 + b0, nb, vecsPerBlock, a, a + laneCount)
                    tile2x2(x + f * K + i0, K, q2 + i0, q3 + i0, s2 + b0, s3 + b0, nb, vecsPerBlock, a + 2 * laneCount, a + 3 * laneCount)
                    f += 2
                }
#endif
                while f < count {
                    tile4x1(x + f * K + i0, q0 + i0, q1 + i0, q2 + i0, q3 + i0, s0 + b0, s1 + b0, s2 + b0, s3 + b0,
                            nb, vecsPerBlock, acc.data + f * 4 * laneCount)
                    f += 1
                }
                b0 += nb
            }
            for f in 0..<count {
                for j in 0..<rows {
                    let o = o0 + j
                    var sum = loadVec(acc.data + (f * 4 + j) * laneCount).sum()
                    if let zeroScaled, let blockSums {
                        var correction: Float = 0
                        for b in 0..<blocksPerRow { correction += zeroScaled[o * blocksPerRow + b] * blockSums[f * blocksPerRow + b] }
                        sum -= correction
                    }
                    y[f * outFeatures + o] = sum * outScale[o] + bias[o]
                }
            }
            o0 += 4
        }
    }

    /// Per input row, the sum of each block of inputs (for the zero-point correction).
    private func inputBlockSums(_ x: UnsafePointer<Float>, count: Int) -> [Float] {
        var sums = [Float](repeating: 0, count: count * blocksPerRow)
        for f in 0..<count {
            for b in 0..<blocksPerRow {
                var v = Vec()
                let start = x + f * paddedInFeatures + b * blockSize
                for k in 0..<(blockSize / laneCount) { v += loadVec(start + k * laneCount) }
                sums[f * blocksPerRow + b] = v.sum()
            }
        }
        return sums
    }

    /// Sixteen int8 weights as floats. Written lane by lane on purpose: LLVM turns this into one
    /// sign-extend and one convert, where the stdlib's SIMD conversions stay outlined calls.
    @inline(__always) static func load(_ p: UnsafePointer<Int8>) -> Vec {
        var v = Vec()
        for i in 0..<laneCount { v[i] = Float(p[i]) }
        return v
    }

    /// Four rows, one input; `acc` holds the input's four partial-sum vectors.
    @inline(__always)
    private func tile4x1(_ x: UnsafePointer<Float>, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
                         _ q2: UnsafePointer<Int8>, _ q3: UnsafePointer<Int8>,
                         _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>, _ s2: UnsafePointer<Float>, _ s3: UnsafePointer<Float>,
                         _ blocks: Int, _ vecsPerBlock: Int, _ acc: UnsafeMutablePointer<Float>) {
        var a0 = loadVec(acc), a1 = loadVec(acc + 16), a2 = loadVec(acc + 32), a3 = loadVec(acc + 48)
        var i = 0
        for b in 0..<blocks {
            let c0 = Vec(repeating: s0[b]), c1 = Vec(repeating: s1[b]), c2 = Vec(repeating: s2[b]), c3 = Vec(repeating: s3[b])
            for _ in 0..<vecsPerBlock {
                let xv = loadVec(x + i)
                a0.accumulate(xv, Self.load(q0 + i) * c0); a1.accumulate(xv, Self.load(q1 + i) * c1)
                a2.accumulate(xv, Self.load(q2 + i) * c2); a3.accumulate(xv, Self.load(q3 + i) * c3)
                i += laneCount
            }
        }
        storeVec(a0, acc); storeVec(a1, acc + 16); storeVec(a2, acc + 32); storeVec(a3, acc + 48)
    }

#if GLIMT_AVX512
    /// Four rows, four inputs `xStride` floats apart: 16 accumulators, 4 weights, 1 input in 32 zmm.
    @inline(__always)
    private func tile4x4(_ x: UnsafePointer<Float>, _ xStride: Int, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
                         _ q2: UnsafePointer<Int8>, _ q3: UnsafePointer<Int8>,
                         _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>, _ s2: UnsafePointer<Float>, _ s3: UnsafePointer<Float>,
                         _ blocks: Int, _ vecsPerBlock: Int, _ acc: UnsafeMutablePointer<Float>) {
        let p0 = acc, p1 = acc + 64, p2 = acc + 128, p3 = acc + 192
        var a00 = loadVec(p0), a01 = loadVec(p0 + 16), a02 = loadVec(p0 + 32), a03 = loadVec(p0 + 48)
        var a10 = loadVec(p1), a11 = loadVec(p1 + 16), a12 = loadVec(p1 + 32), a13 = loadVec(p1 + 48)
        var a20 = loadVec(p2), a21 = loadVec(p2 + 16), a22 = loadVec(p2 + 32), a23 = loadVec(p2 + 48)
        var a30 = loadVec(p3), a31 = loadVec(p3 + 16), a32 = loadVec(p3 + 32), a33 = loadVec(p3 + 48)
        let x0 = x, x1 = x + xStride, x2 = x + 2 * xStride, x3 = x + 3 * xStride
        var i = 0
        for b in 0..<blocks {
            let c0 = Vec(repeating: s0[b]), c1 = Vec(repeating: s1[b]), c2 = Vec(repeating: s2[b]), c3 = Vec(repeating: s3[b])
            for _ in 0..<vecsPerBlock {
                let w0 = Self.load(q0 + i) * c0, w1 = Self.load(q1 + i) * c1
                let w2 = Self.load(q2 + i) * c2, w3 = Self.load(q3 + i) * c3
                var xv = loadVec(x0 + i)
                a00.accumulate(xv, w0); a01.accumulate(xv, w1); a02.accumulate(xv, w2); a03.accumulate(xv, w3)
                xv = loadVec(x1 + i)
                a10.accumulate(xv, w0); a11.accumulate(xv, w1); a12.accumulate(xv, w2); a13.accumulate(xv, w3)
                xv = loadVec(x2 + i)
                a20.accumulate(xv, w0); a21.accumulate(xv, w1); a22.accumulate(xv, w2); a23.accumulate(xv, w3)
                xv = loadVec(x3 + i)
                a30.accumulate(xv, w0); a31.accumulate(xv, w1); a32.accumulate(xv, w2); a33.accumulate(xv, w3)
                i += laneCount
            }
        }
        storeVec(a00, p0); storeVec(a01, p0 + 16); storeVec(a02, p0 + 32); storeVec(a03, p0 + 48)
        storeVec(a10, p1); storeVec(a11, p1 + 16); storeVec(a12, p1 + 32); storeVec(a13, p1 + 48)
        storeVec(a20, p2); storeVec(a21, p2 + 16); storeVec(a22, p2 + 32); storeVec(a23, p2 + 48)
        storeVec(a30, p3); storeVec(a31, p3 + 16); storeVec(a32, p3 + 32); storeVec(a33, p3 + 48)
    }
#else
    /// Two rows, two inputs `xStride` floats apart: 4 accumulators, 2 weights and 1 input are 14
    /// ymm registers. `accA` and `accB` hold row 0's and row 1's vectors for the first input; the
    /// second input's are 64 floats further.
    @inline(__always)
    private func tile2x2(_ x: UnsafePointer<Float>, _ xStride: Int, _ q0: UnsafePointer<Int8>, _ q1: UnsafePointer<Int8>,
                         _ s0: UnsafePointer<Float>, _ s1: UnsafePointer<Float>,
                         _ blocks: Int, _ vecsPerBlock: Int, _ accA: UnsafeMutablePointer<Float>, _ accB: UnsafeMutablePointer<Float>) {
        var a00 = loadVec(accA), a01 = loadVec(accB), a10 = loadVec(accA + 64), a11 = loadVec(accB + 64)
        let x0 = x, x1 = x + xStride
        var i = 0
        for b in 0..<blocks {
            let c0 = Vec(repeating: s0[b]), c1 = Vec(repeating: s1[b])
            for _ in 0..<vecsPerBlock {
                let w0 = Self.load(q0 + i) * c0, w1 = Self.load(q1 + i) * c1
                var xv = loadVec(x0 + i)
                a00.accumulate(xv, w0); a01.accumulate(xv, w1)
                xv = loadVec(x1 + i)
                a10.accumulate(xv, w0); a11.accumulate(xv, w1)
                i += laneCount
            }
        }
        storeVec(a00, accA); storeVec(a01, accB); storeVec(a10, accA + 64); storeVec(a11, accB + 64)
    }
#endif

    /// Plain scalar reference: dequantize, then multiply.
    public static func reference(input: [Float], weights: [Int8], blockScales: [Float], zeroPoints: [Int8]? = nil, blockSize: Int,
                                 outputScale: [Float]?, bias: [Float]?, inFeatures: Int, outFeatures: Int) -> [Float] {
        let blocks = (inFeatures + blockSize - 1) / blockSize
        return (0..<outFeatures).map { o in
            var s: Float = 0
            for i in 0..<inFeatures {
                let b = o * blocks + i / blockSize
                s += input[i] * (Float(Int32(weights[o * inFeatures + i]) - Int32(zeroPoints?[b] ?? 0)) * blockScales[b])
            }
            return s * (outputScale?[o] ?? 1) + (bias?[o] ?? 0)
        }
    }
}
