import TensorLite
import XCTest

/// Every optimised kernel against its plain scalar reference, on shapes chosen to be awkward:
/// channel counts that are odd or not multiples of 16 or 64, pixel counts that leave every
/// remainder after 4-pixel (AVX-512) and 6-pixel (AVX2) tiles, and maps of 1 pixel or 1 row.
final class KernelTests: XCTestCase {
    func testPointwiseMatchesReference() {
        var rng = SplitMix64(seed: 1)
        var worst: Float = 0
        let shapes = [
            (1, 1, 1, 1), (3, 5, 7, 13), (7, 7, 64, 64), (2, 9, 33, 65), (5, 3, 17, 130), (4, 4, 128, 200), (1, 7, 3, 16), (6, 6, 100, 48),
            (1, 5, 20, 64), (2, 7, 9, 80), (1, 11, 70, 144), (1, 4, 5, 16),
        ]
        for (h, w, cin, cout) in shapes {
            let x = rng.floats(h * w * cin)
            let wts = rng.floats(cin * cout)
            let bias = rng.floats(cout)
            let act = rng.activation(channels: cout)
            let conv = PointwiseConv(weights: wts, bias: bias, inChannels: cin, outChannels: cout, activation: act)
            let out = Tensor(height: h, width: w, channels: cout)
            conv.run(Tensor(height: h, width: w, channels: cin, values: x), into: out)
            let want = PointwiseConv.reference(input: x, pixels: h * w, weights: wts, bias: bias, inChannels: cin, outChannels: cout, activation: act)
            worst = max(worst, assertClose(out.values(), want, "pointwise \(h)x\(w) \(cin)->\(cout)"))
            assertPaddingZero(out)
        }
        print("pointwise: max abs error \(worst)")
    }

    func testDepthwiseMatchesReference() {
        var rng = SplitMix64(seed: 2)
        var worst: Float = 0
        // At stride 1 the AVX2 build steps 5 pixels at a time from rows 7 wide, with a last step
        // that overlaps the one before it unless the width leaves no remainder: widths 6 to 16
        // leave every remainder. Rows wider than a strip (125 px at 16 channels, 30 at 64, 15 from
        // 128) go in several, the last of them down to 1 pixel.
        let shapes = [
            (1, 1, 1), (2, 2, 5), (3, 7, 17), (7, 7, 64), (8, 5, 33), (13, 11, 48), (9, 9, 130), (1, 6, 16), (6, 1, 20), (3, 24, 24), (4, 29, 40),
            (2, 8, 8), (3, 10, 24), (2, 12, 3), (3, 13, 16), (2, 14, 40), (4, 15, 9), (2, 16, 64), (3, 20, 16),
            (2, 70, 64), (3, 37, 130), (2, 131, 16), (2, 62, 50), (2, 127, 7),
        ]
        for (h, w, c) in shapes {
            for stride in [1, 2] {
                let x = rng.floats(h * w * c)
                let wts = rng.floats(c * 9)
                let bias = rng.floats(c)
                let act = rng.activation(channels: c)
                let conv = DepthwiseConv(weights: wts, bias: bias, channels: c, stride: stride, activation: act)
                let (oh, ow) = conv.outputShape(height: h, width: w)
                let out = Tensor(height: oh, width: ow, channels: c)
                conv.run(Tensor(height: h, width: w, channels: c, values: x), into: out)
                let want = DepthwiseConv.reference(
                    input: x, height: h, width: w, channels: c, weights: wts, bias: bias, stride: stride, activation: act)
                worst = max(worst, assertClose(out.values(), want, "depthwise \(h)x\(w)x\(c) s\(stride)"))
                assertPaddingZero(out)
            }
        }
        print("depthwise: max abs error \(worst)")
    }

    /// The stem as both networks run it, from 8-bit pixels: odd sizes, virtual padding, channel
    /// orders, 1, 3 or 4 channels in 1, 3 or 4 bytes per pixel, normalisations, both strides, and
    /// output channels that fill one, two or a mix of 16-lane vectors.
    func testConv3x3MatchesReference() {
        var rng = SplitMix64(seed: 3)
        var worst = (bytes: Float(0), normalised: Float(0))
        let sizes = [(1, 1), (1, 2), (2, 1), (3, 5), (5, 3), (2, 17), (17, 7), (6, 10), (8, 16), (33, 33)]
        // Bottom and right padding: none, a few odd pixels, up to a multiple of 32.
        let paddings: [(Int, Int) -> (Int, Int)] = [{ ($0, $1) }, { ($0 + 1, $1 + 3) }, { (roundUp($0, to: 32), roundUp($1, to: 32)) }]
        // Three bytes in another order than the network's go into the weights, not the rows: two
        // such orders besides BGR.
        let formats: [(bytesPerPixel: Int, order: [Int])] = [
            (3, [0, 1, 2]), (3, [2, 1, 0]), (3, [1, 2, 0]), (3, [0, 2, 1]), (4, [2, 1, 0]), (4, [1, 2, 3]), (1, [0]), (4, [3, 2, 1, 0]),
        ]
        // As fed to YuNet (bytes), to SFace (about ±1), and an uncentred scale.
        let normalisations: [(offset: Float, scale: Float)] = [(0, 1), (-127.5, 1 / 128), (-40, 0.02)]
        for (h, w) in sizes {
            for stride in [1, 2] {
                for pad in paddings {
                    for format in formats {
                        let (ph, pw) = pad(h, w)
                        let cout = [16, 32, 20, 48, 70, 1].randomElement(using: &rng)!
                        let norm = normalisations.randomElement(using: &rng)!
                        let err = checkConv3x3(
                            height: h, width: w, paddedHeight: ph, paddedWidth: pw, format: format, normalisation: norm,
                            outChannels: cout, stride: stride, activation: rng.activation(channels: cout),
                            withBias: Bool.random(using: &rng), rng: &rng)
                        if norm.scale == 1 { worst.bytes = max(worst.bytes, err) } else { worst.normalised = max(worst.normalised, err) }
                    }
                }
            }
        }
        print("conv3x3: max abs error \(worst.bytes) on byte inputs, \(worst.normalised) on normalised inputs")
    }

    /// The stems of the product: SFace's 112x112 face to 32 channels, and YuNet's BGR picture,
    /// padded to a multiple of 32, to 16 channels at stride 2.
    func testConv3x3MatchesReferenceOnStems() {
        var rng = SplitMix64(seed: 8)
        checkConv3x3(
            height: 112, width: 112, paddedHeight: 112, paddedWidth: 112, format: (3, [0, 1, 2]), normalisation: (-127.5, 1 / 128),
            outChannels: 32, stride: 1, activation: .prelu(rng.floats(32, scale: 0.5)), withBias: true, rng: &rng)
        checkConv3x3(
            height: 201, width: 298, paddedHeight: 224, paddedWidth: 320, format: (3, [2, 1, 0]), normalisation: (0, 1),
            outChannels: 16, stride: 2, activation: .relu, withBias: true, rng: &rng)
    }

    /// Runs `Conv3x3.run(ByteImage)` on random bytes against the reference on the picture converted
    /// by hand, and returns the max abs error. The output starts as NaN, as a reused tensor holds
    /// stale values: every value, padding lanes included, must be written.
    @discardableResult
    private func checkConv3x3(
        height h: Int, width w: Int, paddedHeight ph: Int, paddedWidth pw: Int, format: (bytesPerPixel: Int, order: [Int]),
        normalisation: (offset: Float, scale: Float), outChannels cout: Int, stride: Int, activation: Activation,
        withBias: Bool, rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line
    ) -> Float {
        let cin = format.order.count
        let bytes = (0..<(h * w * format.bytesPerPixel)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let wts = rng.floats(cout * cin * 9)
        let bias = withBias ? rng.floats(cout) : nil
        let conv = Conv3x3(weights: wts, bias: bias, inChannels: cin, outChannels: cout, stride: stride, activation: activation)
        let (oh, ow) = conv.outputShape(height: ph, width: pw)
        let out = Tensor(height: oh, width: ow, channels: cout)
        out.data.update(repeating: .nan, count: out.pixelCount * out.pixelStride)
        let input = bytes.withUnsafeBufferPointer { px in
            let image = ByteImage(
                data: px.baseAddress!, width: w, height: h, bytesPerPixel: format.bytesPerPixel, order: format.order,
                offset: normalisation.offset, scale: normalisation.scale, paddedWidth: pw, paddedHeight: ph)
            conv.run(image, into: out)
            return image.referenceValues()
        }
        let want = Conv3x3.reference(
            input: input, height: ph, width: pw, inChannels: cin, weights: wts, bias: bias,
            outChannels: cout, stride: stride, activation: activation)
        let what =
            "conv3x3 \(h)x\(w) padded \(ph)x\(pw), \(format.bytesPerPixel) bytes \(format.order), \(normalisation), \(cin)->\(cout) s\(stride) \(activation == .none ? "" : activation == .relu ? "relu" : "prelu")"
        assertPaddingZero(out, file: file, line: line)
        // Tighter than the default: a few dozen products per output leave little rounding.
        return assertClose(out.values(), want, tolerance: 1e-5, what, file: file, line: line)
    }

    func testFullyConnectedMatchesReference() {
        var rng = SplitMix64(seed: 4)
        var worst: Float = 0
        for (inF, outF) in [(1, 1), (17, 3), (100, 7), (1000, 128), (50, 130)] {
            let x = rng.floats(inF), w = rng.floats(inF * outF), b = rng.floats(outF)
            let fc = FullyConnected(weights: w, bias: b, inFeatures: inF, outFeatures: outF)
            worst = max(
                worst,
                assertClose(
                    fc.run(x), FullyConnected.reference(input: x, weights: w, bias: b, inFeatures: inF, outFeatures: outF), "fc \(inF)->\(outF)"))
        }
        print("fully connected: max abs error \(worst)")
    }

    func testPointwiseDepthwiseEqualsTheTwoConvolutions() {
        var rng = SplitMix64(seed: 7)
        for (h, w, cin, cout, stride) in [(1, 1, 3, 5), (5, 7, 16, 16), (9, 4, 17, 33), (13, 11, 64, 64), (6, 9, 32, 20)].flatMap({ s in
            [1, 2].map { (s.0, s.1, s.2, s.3, $0) }
        }) {
            let pw = PointwiseConv(
                weights: rng.floats(cin * cout), bias: rng.floats(cout), inChannels: cin, outChannels: cout,
                activation: rng.activation(channels: cout))
            let dw = DepthwiseConv(
                weights: rng.floats(cout * 9), bias: rng.floats(cout), channels: cout, stride: stride,
                activation: rng.activation(channels: cout))
            let x = Tensor(height: h, width: w, channels: cin, values: rng.floats(h * w * cin))
            let mid = Tensor(height: h, width: w, channels: cout)
            let (oh, ow) = dw.outputShape(height: h, width: w)
            let want = Tensor(height: oh, width: ow, channels: cout), got = Tensor(height: oh, width: ow, channels: cout)
            pw.run(x, into: mid)
            dw.run(mid, into: want)
            PointwiseDepthwise(pointwise: pw, depthwise: dw).run(x, into: got)
            XCTAssertEqual(got.values(), want.values(), "fused \(h)x\(w) \(cin)->\(cout) stride \(stride)")
            guard oh >= 2 && ow >= 2 else { continue }
            let pooledWant = Tensor(height: oh / 2, width: ow / 2, channels: cout), pooledGot = Tensor(height: oh / 2, width: ow / 2, channels: cout)
            MaxPool2x2.run(want, into: pooledWant)
            PointwiseDepthwise(pointwise: pw, depthwise: dw).run(x, intoPooled: pooledGot)
            XCTAssertEqual(pooledGot.values(), pooledWant.values(), "fused and pooled \(h)x\(w) \(cin)->\(cout) stride \(stride)")
        }
    }

    /// Depthwise then pointwise in bands of rows against the two run whole: equal bit for bit,
    /// on odd sizes, both strides, channel counts that do not fill vectors, and maps of one band
    /// and of many (bands of 64 KB: two rows of 112 px at 64 channels, or of 37 px at 200).
    func testDepthwisePointwiseEqualsTheTwoConvolutions() {
        var rng = SplitMix64(seed: 11)
        for (h, w, cin, cout, stride) in [(1, 1, 3, 5), (5, 7, 16, 16), (9, 4, 17, 33), (13, 11, 64, 64), (30, 37, 200, 24), (112, 112, 64, 20)]
            .flatMap({ s in [1, 2].map { (s.0, s.1, s.2, s.3, $0) } })
        {
            let dw = DepthwiseConv(
                weights: rng.floats(cin * 9), bias: rng.floats(cin), channels: cin, stride: stride,
                activation: rng.activation(channels: cin))
            let pw = PointwiseConv(
                weights: rng.floats(cin * cout), bias: rng.floats(cout), inChannels: cin, outChannels: cout,
                activation: rng.activation(channels: cout))
            let x = Tensor(height: h, width: w, channels: cin, values: rng.floats(h * w * cin))
            let (oh, ow) = dw.outputShape(height: h, width: w)
            let mid = Tensor(height: oh, width: ow, channels: cin), scratch = Tensor(height: oh, width: ow, channels: cin)
            let want = Tensor(height: oh, width: ow, channels: cout), got = Tensor(height: oh, width: ow, channels: cout)
            dw.run(x, into: mid)
            pw.run(mid, into: want)
            DepthwisePointwise(depthwise: dw, pointwise: pw).run(x, into: got, scratch: scratch)
            XCTAssertEqual(got.values(), want.values(), "banded \(h)x\(w) \(cin)->\(cout) stride \(stride)")
        }
    }

    /// The stem's rows fed straight into a fused, pooled unit against the stem's stored map then
    /// the unit: equal bit for bit, on odd sizes, virtual padding, both strides, 1 or 3 bytes
    /// per pixel, channel counts that do not fill vectors.
    func testPointwiseDepthwiseFromStemRowsEqualsTheStoredMap() {
        var rng = SplitMix64(seed: 9)
        let cases: [(h: Int, w: Int, ph: Int, pw: Int, bpp: Int, order: [Int], stride: Int, mid: Int, out: Int)] = [
            (5, 7, 5, 7, 3, [2, 1, 0], 2, 16, 16), (9, 13, 32, 32, 3, [2, 1, 0], 2, 16, 16), (6, 6, 7, 9, 3, [0, 1, 2], 1, 20, 33),
            (17, 11, 17, 14, 3, [1, 2, 0], 2, 33, 16), (4, 21, 4, 21, 3, [2, 1, 0], 1, 48, 64), (8, 10, 8, 10, 1, [0], 1, 16, 5),
        ]
        for c in cases {
            let bytes = (0..<(c.h * c.w * c.bpp)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let cin = c.order.count
            let stem = Conv3x3(
                weights: rng.floats(c.mid * cin * 9), bias: rng.floats(c.mid), inChannels: cin, outChannels: c.mid, stride: c.stride,
                activation: rng.activation(channels: c.mid))
            let unit = PointwiseDepthwise(
                pointwise: PointwiseConv(weights: rng.floats(c.mid * c.out), bias: rng.floats(c.out), inChannels: c.mid, outChannels: c.out),
                depthwise: DepthwiseConv(weights: rng.floats(c.out * 9), bias: rng.floats(c.out), channels: c.out, stride: 1, activation: .relu))
            bytes.withUnsafeBufferPointer { px in
                let image = ByteImage(
                    data: px.baseAddress!, width: c.w, height: c.h, bytesPerPixel: c.bpp, order: c.order, offset: -10, scale: 0.5,
                    paddedWidth: c.pw, paddedHeight: c.ph)
                let (sh, sw) = stem.outputShape(height: c.ph, width: c.pw)
                let map = Tensor(height: sh, width: sw, channels: c.mid)
                stem.run(image, into: map)
                let want = Tensor(height: sh / 2, width: sw / 2, channels: c.out), got = Tensor(height: sh / 2, width: sw / 2, channels: c.out)
                unit.run(map, intoPooled: want)
                unit.run(stem.rows(image), intoPooled: got)
                XCTAssertEqual(got.values(), want.values(), "stem rows \(c)")
            }
        }
    }

    func testQuantizedFullyConnectedMatchesReference() {
        var rng = SplitMix64(seed: 5)
        var worst: Float = 0
        for (inF, outF, block, batch) in [(1, 1, 16, 1), (17, 3, 16, 2), (100, 7, 32, 5), (1000, 130, 64, 9), (5000, 5, 64, 4), (64, 4, 64, 3)] {
            let blocks = (inF + block - 1) / block
            let q = (0..<(inF * outF)).map { _ in Int8.random(in: -127...127, using: &rng) }
            let s = rng.floats(outF * blocks, scale: 0.01), os = rng.floats(outF), b = rng.floats(outF)
            // Zero points as SFace's file has them: most blocks' are not 0.
            let z = (0..<(outF * blocks)).map { _ in Int8.random(in: -20...20, using: &rng) }
            let fc = QuantizedFullyConnected(
                weights: q, blockScales: s, zeroPoints: z, blockSize: block, outputScale: os, bias: b,
                inFeatures: inF, outFeatures: outF)
            let xs = (0..<batch).map { _ in rng.floats(inF) }
            let x = AlignedFloats(count: batch * fc.paddedInFeatures)
            for (f, row) in xs.enumerated() { for i in 0..<inF { x.data[f * fc.paddedInFeatures + i] = row[i] } }
            var y = [Float](repeating: .nan, count: batch * outF)
            y.withUnsafeMutableBufferPointer { fc.run(x.data, count: batch, into: $0.baseAddress!) }
            for (f, row) in xs.enumerated() {
                let want = QuantizedFullyConnected.reference(
                    input: row, weights: q, blockScales: s, zeroPoints: z, blockSize: block,
                    outputScale: os, bias: b, inFeatures: inF, outFeatures: outF)
                let got = Array(y[f * outF..<(f + 1) * outF])
                worst = max(worst, assertClose(got, want, "int8 fc \(inF)->\(outF) block \(block) input \(f) of \(batch)"))
                // The same input alone gives the same bits: results never depend on the batch.
                var alone = [Float](repeating: .nan, count: outF)
                alone.withUnsafeMutableBufferPointer { fc.run(x.data + f * fc.paddedInFeatures, count: 1, into: $0.baseAddress!) }
                XCTAssertEqual(alone, got, "int8 fc \(inF)->\(outF): input \(f) alone differs from its batch of \(batch)")
            }
        }
        print("int8 fully connected: max abs error \(worst)")
    }

    func testArenaAlternatingBuffersAreSharedAndDistinct() {
        let arena = TensorArena()
        let a = arena.alternating(0, height: 4, width: 4, channels: 16), b = arena.alternating(1, height: 4, width: 4, channels: 16)
        XCTAssertNotEqual(a.data, b.data)
        let c = arena.alternating(0, height: 2, width: 2, channels: 32)  // smaller: same buffer
        XCTAssertEqual(c.data, a.data)
        let d = arena.alternating(1, height: 8, width: 8, channels: 16)  // larger: the buffer grows
        d[7, 7, 15] = 1
        XCTAssertEqual(d[7, 7, 15], 1)
        XCTAssertNotEqual(d.data, c.data)
    }

    func testChannelsFirstCopy() {
        var rng = SplitMix64(seed: 6)
        let (h, w, c) = (3, 5, 21)
        let v = rng.floats(h * w * c), s = rng.floats(c)
        let t = Tensor(height: h, width: w, channels: c, values: v)
        var out = [Float](repeating: .nan, count: h * w * c)
        out.withUnsafeMutableBufferPointer { t.copyChannelsFirst(scale: s, into: $0.baseAddress!) }
        for ch in 0..<c { for p in 0..<(h * w) { XCTAssertEqual(out[ch * h * w + p], v[p * c + ch] * s[ch]) } }
    }

    func testBatchNormFoldEqualsConvThenBatchNorm() {
        var rng = SplitMix64(seed: 5)
        let (h, w, cin, cout) = (5, 6, 19, 21)
        let x = rng.floats(h * w * cin), wts = rng.floats(cin * cout), bias = rng.floats(cout)
        let bn = BatchNorm(
            gamma: rng.floats(cout), beta: rng.floats(cout), mean: rng.floats(cout),
            variance: rng.floats(cout).map { abs($0) + 0.1 }, epsilon: 1e-3)
        let unfolded = bn.reference(PointwiseConv.reference(input: x, pixels: h * w, weights: wts, bias: bias, inChannels: cin, outChannels: cout))
        let f = bn.fold(weights: wts, bias: bias)
        let folded = PointwiseConv.reference(input: x, pixels: h * w, weights: f.weights, bias: f.bias, inChannels: cin, outChannels: cout)
        assertClose(folded, unfolded, "batchnorm fold")
    }
}

final class PoolingTests: XCTestCase {
    func testMaxPoolMatchesReference() {
        var rng = SplitMix64(seed: 6)
        for (h, w, c) in [(2, 2, 1), (5, 7, 17), (8, 8, 64), (3, 9, 33)] {
            let x = rng.floats(h * w * c)
            let (oh, ow) = MaxPool2x2.outputShape(height: h, width: w)
            let out = Tensor(height: oh, width: ow, channels: c)
            MaxPool2x2.run(Tensor(height: h, width: w, channels: c, values: x), into: out)
            XCTAssertEqual(out.values(), MaxPool2x2.reference(input: x, height: h, width: w, channels: c), "maxpool \(h)x\(w)x\(c)")
        }
    }

    func testUpsampleAddMatchesReference() {
        var rng = SplitMix64(seed: 7)
        for (h, w, c) in [(2, 2, 1), (4, 6, 17), (10, 10, 64)] {
            let skip = rng.floats(h * w * c), coarse = rng.floats(h / 2 * (w / 2) * c)
            let out = Tensor(height: h, width: w, channels: c)
            UpsampleAdd.run(
                skip: Tensor(height: h, width: w, channels: c, values: skip),
                coarse: Tensor(height: h / 2, width: w / 2, channels: c, values: coarse), into: out)
            XCTAssertEqual(
                out.values(), UpsampleAdd.reference(skip: skip, coarse: coarse, height: h, width: w, channels: c), "upsample-add \(h)x\(w)x\(c)")
        }
    }
}
