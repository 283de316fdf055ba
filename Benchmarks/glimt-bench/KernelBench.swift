import Foundation
import TensorLite

/// Times each TensorLite kernel alone at the shapes SFace runs it on (and the stem at YuNet's too),
/// as GFLOPS, to see which kernel is far from the machine's peak.
enum KernelBench {
    static func run(repeats: Int, yunetOnly: Bool = false) {
        var seed: UInt32 = 12345
        func rand(_ n: Int) -> [Float] {
            (0..<n).map { _ in
                seed = seed &* 1_664_525 &+ 1_013_904_223
                return Float(seed >> 8) / Float(1 << 23) - 1
            }
        }
        print("kernel (thread CPU time)".padding(toLength: 30, withPad: " ", startingAt: 0) + "        ms    GFLOPS")
        // YuNet's layers at a 640x640 input, each kernel alone: which of them is far from peak.
        for (size, cin, cout) in [
            (320, 16, 16), (160, 16, 16), (160, 16, 32), (160, 32, 32), (160, 32, 64), (80, 64, 64), (40, 64, 64), (20, 64, 64), (80, 64, 16),
        ] {
            let pw = PointwiseConv(weights: rand(cin * cout), bias: rand(cout), inChannels: cin, outChannels: cout)
            let dw = DepthwiseConv(weights: rand(cout * 9), bias: rand(cout), channels: cout, stride: 1, activation: .relu)
            let fused = PointwiseDepthwise(pointwise: pw, depthwise: dw)
            let x = Tensor(height: size, width: size, channels: cin, values: rand(size * size * cin))
            let mid = Tensor(height: size, width: size, channels: cout), y = Tensor(height: size, width: size, channels: cout)
            report("yunet pw \(size)x\(size) \(cin)->\(cout)", cpuMilliseconds(repeats) { pw.run(x, into: mid) }, pw.flops * size * size)
            report("yunet dw \(size)x\(size)x\(cout)", cpuMilliseconds(repeats) { dw.run(mid, into: y) }, 18 * cout * size * size)
            report("yunet pw+dw \(size)x\(size) \(cin)->\(cout)", cpuMilliseconds(repeats) { fused.run(x, into: y) }, fused.flops * size * size)
        }
        do {
            let stem = Conv3x3(weights: rand(16 * 27), bias: rand(16), inChannels: 3, outChannels: 16, stride: 2, activation: .relu)
            for size in [320, 640] {
                let bytes = rand(size * size * 3).map { UInt8(($0 + 1) * 127.5) }
                let (oh, ow) = stem.outputShape(height: size, width: size)
                let y = Tensor(height: oh, width: ow, channels: 16)
                for order in [[2, 1, 0], [0, 1, 2]] {
                    let ms = bytes.withUnsafeBufferPointer { px in
                        let image = ByteImage(data: px.baseAddress!, width: size, height: size, order: order)
                        return cpuMilliseconds(repeats) { stem.run(image, into: y) }
                    }
                    report("yunet stem \(size)x\(size) \(order == [2, 1, 0] ? "BGR" : "RGB")", ms, stem.flops * oh * ow)
                }
            }
        }
        if yunetOnly { return }
        for (size, cin, cout) in [
            (112, 27, 32), (112, 32, 64), (56, 64, 128), (56, 128, 128), (28, 128, 256), (28, 256, 256), (14, 256, 512), (14, 512, 512),
            (7, 512, 1024), (7, 1024, 1024),
        ] {
            let conv = PointwiseConv(weights: rand(cin * cout), bias: rand(cout), inChannels: cin, outChannels: cout, activation: .prelu(rand(cout)))
            let x = Tensor(height: size, width: size, channels: cin, values: rand(size * size * cin))
            let y = Tensor(height: size, width: size, channels: cout)
            let ms = cpuMilliseconds(repeats) { conv.run(x, into: y) }
            report("pointwise \(size)x\(size) \(cin)->\(cout)", ms, conv.flops * size * size)
        }
        // The same layers in int8 where the build has an int8 kernel and SFace runs them so (128
        // inputs or more, blocks of 64 as the weight file has them), from inputs shaped as PReLU
        // outputs are.
        for (size, cin, cout) in [(56, 128, 128), (28, 128, 256), (28, 256, 256), (14, 256, 512), (14, 512, 512), (7, 512, 1024), (7, 1024, 1024)]
        where QuantizedPointwiseConv.isFast {
            let blocks = cin / 64
            let conv = QuantizedPointwiseConv(
                q: rand(cin * cout).map { Int8(($0 * 127).rounded()) }, scales: rand(cout * blocks).map { 0.001 + abs($0) * 0.01 },
                zeroPoints: rand(cout * blocks).map { Int8(($0 * 20).rounded()) }, blockSize: 64, outputScale: nil, bias: rand(cout),
                inChannels: cin, outChannels: cout, activation: .prelu(rand(cout)))
            let x = Tensor(height: size, width: size, channels: cin, values: rand(size * size * cin).map { $0 > 0 ? $0 : 0.2 * $0 })
            let y = Tensor(height: size, width: size, channels: cout)
            let ms = cpuMilliseconds(repeats) { conv.run(x, into: y) }
            report("int8 pointwise \(size)x\(size) \(cin)->\(cout)", ms, conv.flops * size * size)
        }
        for (size, c, s) in [
            (112, 32, 1), (112, 64, 2), (56, 128, 1), (56, 128, 2), (28, 256, 1), (28, 256, 2), (14, 512, 1), (14, 512, 2), (7, 1024, 1),
        ] {
            let conv = DepthwiseConv(weights: rand(c * 9), bias: rand(c), channels: c, stride: s, activation: .prelu(rand(c)))
            let x = Tensor(height: size, width: size, channels: c, values: rand(size * size * c))
            let (oh, ow) = conv.outputShape(height: size, width: size)
            let y = Tensor(height: oh, width: ow, channels: c)
            let ms = cpuMilliseconds(repeats) { conv.run(x, into: y) }
            report("depthwise \(size)x\(size)x\(c) s\(s)", ms, 18 * oh * ow * c)
        }
        // YuNet's DP units at a 640x640 input: pointwise then depthwise as two passes, and fused row by row.
        for (size, cin, cout) in [(320, 16, 16), (160, 16, 32), (160, 32, 64), (80, 64, 64)] {
            let pw = PointwiseConv(weights: rand(cin * cout), bias: rand(cout), inChannels: cin, outChannels: cout)
            let dw = DepthwiseConv(weights: rand(cout * 9), bias: rand(cout), channels: cout, stride: 1, activation: .relu)
            let fused = PointwiseDepthwise(pointwise: pw, depthwise: dw)
            let x = Tensor(height: size, width: size, channels: cin, values: rand(size * size * cin))
            let mid = Tensor(height: size, width: size, channels: cout), y = Tensor(height: size, width: size, channels: cout)
            let two = cpuMilliseconds(repeats) {
                pw.run(x, into: mid); dw.run(mid, into: y)
            }
            let one = cpuMilliseconds(repeats) { fused.run(x, into: y) }
            report("dp unit \(size)x\(size) \(cin)->\(cout) 2 pass", two, fused.flops * size * size)
            report("dp unit \(size)x\(size) \(cin)->\(cout) fused", one, fused.flops * size * size)
        }
        // The stems as the networks run them, from 8-bit pixels: SFace's face, YuNet's picture.
        let sface = Conv3x3(weights: rand(32 * 27), bias: rand(32), inChannels: 3, outChannels: 32, stride: 1, activation: .prelu(rand(32)))
        let yunet = Conv3x3(weights: rand(16 * 27), bias: rand(16), inChannels: 3, outChannels: 16, stride: 2, activation: .relu)
        for (conv, size, order, offset, scale) in [(sface, 112, [0, 1, 2], Float(-127.5), Float(1) / 128), (yunet, 640, [2, 1, 0], 0, 1)] {
            let bytes = rand(size * size * 3).map { UInt8(($0 + 1) * 127.5) }
            let (oh, ow) = conv.outputShape(height: size, width: size)
            let y = Tensor(height: oh, width: ow, channels: conv.outChannels)
            let ms = bytes.withUnsafeBufferPointer { px in
                let image = ByteImage(data: px.baseAddress!, width: size, height: size, order: order, offset: offset, scale: scale)
                return cpuMilliseconds(repeats) { conv.run(image, into: y) }
            }
            report("conv3x3 \(size)x\(size) 3->\(conv.outChannels) s\(conv.stride)", ms, conv.flops * oh * ow)
        }
        do {
            let fc = FullyConnected(weights: rand(128 * 50176), bias: rand(128), inFeatures: 50176, outFeatures: 128)
            let x = AlignedFloats(count: 50176)
            var out = [Float](repeating: 0, count: 128)
            let ms = cpuMilliseconds(repeats) { out.withUnsafeMutableBufferPointer { fc.run(x.data, into: $0.baseAddress!) } }
            report("fully connected 50176->128", ms, 2 * 50176 * 128)
            let flush = AlignedFloats(count: 16 << 20)
            var cold: [Double] = []
            for r in 0..<max(3, repeats) {
                for i in Swift.stride(from: 0, to: flush.count, by: 16) { flush.data[i] += Float(r) }
                cold.append(cpuOnce { out.withUnsafeMutableBufferPointer { fc.run(x.data, into: $0.baseAddress!) } })
            }
            report("fully connected ... cold", cold.sorted()[cold.count / 2], 2 * 50176 * 128)
        }
        do {
            let q = rand(128 * 50176).map { Int8(($0 * 127).rounded()) }
            let fc = QuantizedFullyConnected(
                weights: q, blockScales: rand(128 * 784), blockSize: 64, outputScale: nil, bias: rand(128),
                inFeatures: 50176, outFeatures: 128)
            for batch in [1, 4, 8] {
                let x = AlignedFloats(count: batch * fc.paddedInFeatures)
                var out = [Float](repeating: 0, count: batch * 128)
                let ms = cpuMilliseconds(repeats) { out.withUnsafeMutableBufferPointer { fc.run(x.data, count: batch, into: $0.baseAddress!) } }
                report("int8 fc 50176->128 x\(batch)", ms / Double(batch), 2 * 50176 * 128)
            }
            // As a network runs it: its other layers have pushed the weights out of cache.
            let flush = AlignedFloats(count: 16 << 20)
            let x = AlignedFloats(count: fc.paddedInFeatures)
            var out = [Float](repeating: 0, count: 128)
            var cold: [Double] = []
            for r in 0..<max(3, repeats) {
                for i in Swift.stride(from: 0, to: flush.count, by: 16) { flush.data[i] += Float(r) }
                cold.append(cpuOnce { out.withUnsafeMutableBufferPointer { fc.run(x.data, count: 1, into: $0.baseAddress!) } })
            }
            report("int8 fc 50176->128 x1 cold", cold.sorted()[cold.count / 2], 2 * 50176 * 128)
        }
    }

    /// Median thread CPU time of `repeats` runs after a warm-up: on a shared machine, time spent
    /// descheduled is not the kernel's, and wall time swings with it.
    static func cpuMilliseconds(_ repeats: Int, _ body: () -> Void) -> Double {
        body()
        var times = (0..<max(1, repeats)).map { _ in cpuOnce(body) }
        times.sort()
        return times[times.count / 2]
    }

    /// Thread CPU time of one run, in milliseconds.
    static func cpuOnce(_ body: () -> Void) -> Double {
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
        }
        let t0 = now()
        body()
        return now() - t0
    }

    private static func report(_ name: String, _ ms: Double, _ flops: Int) {
        print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%10.3f %9.1f", ms, Double(flops) / ms / 1e6))
    }
}
