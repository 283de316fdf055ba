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
    let weights: AlignedBytes  // [out][paddedInFeatures], zero past inFeatures
    let scales: AlignedFloats  // [out][blocksPerRow]
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
    public init(
        weights: [Int8], blockScales: [Float], zeroPoints: [Int8]? = nil, blockSize: Int, outputScale: [Float]?, bias: [Float]?,
        inFeatures: Int, outFeatures: Int
    ) {
        precondition(weights.count == inFeatures * outFeatures, "QuantizedFullyConnected: \(weights.count) weights for \(outFeatures)x\(inFeatures)")
        precondition(
            blockSize > 0 && blockSize % laneCount == 0, "QuantizedFullyConnected: block size \(blockSize) is not a multiple of \(laneCount)")
        self.inFeatures = inFeatures
        self.outFeatures = outFeatures
        self.blockSize = blockSize
        blocksPerRow = (inFeatures + blockSize - 1) / blockSize
        precondition(
            blockScales.count == outFeatures * blocksPerRow,
            "QuantizedFullyConnected: \(blockScales.count) scales, expected \(outFeatures * blocksPerRow)")
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
            precondition(
                zeroPoints.count == blockScales.count, "QuantizedFullyConnected: \(zeroPoints.count) zero points for \(blockScales.count) blocks")
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
                var f = multiInputTiles(
                    x + i0, K, q0 + i0, q1 + i0, q2 + i0, q3 + i0, s0 + b0, s1 + b0, s2 + b0, s3 + b0,
                    nb, vecsPerBlock, count, acc.data)
                while f < count {
                    tile4x1(
                        x + f * K + i0, q0 + i0, q1 + i0, q2 + i0, q3 + i0, s0 + b0, s1 + b0, s2 + b0, s3 + b0,
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
}
