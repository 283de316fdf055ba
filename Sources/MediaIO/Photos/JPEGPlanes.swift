/// A JPEG's component planes decoded the way libjpeg decodes them, integer IDCT included
/// (`JPEGIntegerIDCT`): Huffman-coded 8-bit JPEGs, sequential (what cameras and phones write) or
/// progressive (common on the web), with or without restart markers.
///
/// Only for matching OpenCV's pixels exactly: the photo has already been decoded and checked by
/// FFmpeg, so anything this type does not handle (arithmetic coding, lossless, 12 bits, Adobe RGB
/// or CMYK, odd sampling factors, broken tables or markers) gives nil and FFmpeg's planes are used
/// instead. Written from the JPEG standard (ITU-T T.81): Annexes B (syntax), F (sequential) and
/// G (progressive: spectral selection and successive approximation).
public struct JPEGPlanes {
    public struct Component {
        public let horizontal: Int, vertical: Int
        /// Samples in the picture's own size (libjpeg's downsampled width and height).
        public let width: Int, height: Int
        /// Rows of `stride` samples, padded to whole MCUs.
        public let stride: Int
        public var samples: [UInt8]
    }

    public let width: Int
    public let height: Int
    public let components: [Component]

    /// nil for anything but a whole JPEG of the kinds above of at most `maxPixels` pixels.
    public init?(bytes: [UInt8], maxPixels: Int) {
        var parser = Parser(bytes: bytes, maxPixels: maxPixels)
        guard let decoded = try? parser.run() else { return nil }
        width = decoded.width
        height = decoded.height
        components = decoded.components
    }
}

private struct DecodeFailure: Error {}

private struct HuffmanTable {
    /// For the next 9 bits: code length (0: longer than 9) and symbol.
    var fast = [UInt16](repeating: 0, count: 512)
    var maxCode = [Int](repeating: -1, count: 18)
    var valueOffset = [Int](repeating: 0, count: 17)
    var symbols: [UInt8] = []

    init(counts: [Int], symbols: [UInt8]) throws {
        self.symbols = symbols
        // Canonical codes (T.81 Annex C): lengths 1...16 in order, each code one more than the last.
        var code = 0, k = 0
        for length in 1...16 {
            let n = counts[length - 1]
            valueOffset[length] = k - code
            if n > 0 {
                for _ in 0..<n {
                    // More codes than this length has room for: not a Huffman table.
                    guard code < 1 << length else { throw DecodeFailure() }
                    if length <= 9 {
                        let shift = 9 - length
                        for fill in 0..<(1 << shift) { fast[(code << shift) | fill] = UInt16(length << 8) | UInt16(symbols[k]) }
                    }
                    code += 1
                    k += 1
                }
                maxCode[length] = code - 1
            }
            code <<= 1
        }
        maxCode[17] = Int.max
    }
}

private struct BitReader {
    let bytes: [UInt8]
    var position: Int
    var buffer: UInt64 = 0
    var count = 0
    /// A marker was met: the rest reads as zeros (libjpeg does the same).
    var hitMarker = false

    init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    mutating func fill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if !hitMarker && position < bytes.count {
                byte = bytes[position]
                if byte == 0xFF {
                    let next = position + 1 < bytes.count ? bytes[position + 1] : 0xD9
                    if next == 0 {
                        position += 2
                    } else {
                        hitMarker = true
                        byte = 0
                    }
                } else {
                    position += 1
                }
            }
            buffer |= UInt64(byte) << (56 - count)
            count += 8
        }
    }

    mutating func bits(_ n: Int) -> Int {
        if n == 0 { return 0 }
        if count < n { fill() }
        let v = Int(buffer >> (64 - n))
        buffer <<= n
        count -= n
        return v
    }

    mutating func decode(_ table: HuffmanTable) throws -> Int {
        if count < 16 { fill() }
        let peek = Int(buffer >> 55)
        let entry = table.fast[peek]
        if entry != 0 {
            let length = Int(entry >> 8)
            buffer <<= length
            count -= length
            return Int(entry & 0xFF)
        }
        var code = 0
        for length in 1...16 {
            code = (code << 1) | bits(1)
            if code <= table.maxCode[length] {
                let index = code + table.valueOffset[length]
                guard index >= 0, index < table.symbols.count else { throw DecodeFailure() }
                return Int(table.symbols[index])
            }
        }
        throw DecodeFailure()
    }

    /// `n` bits as a signed value (T.81 F.2.2.1, EXTEND).
    mutating func signed(_ n: Int) -> Int {
        let v = bits(n)
        return v < 1 << (n - 1) ? v - (1 << n) + 1 : v
    }

    /// Skips to the restart marker that should be next; false if it is not there.
    mutating func restart(_ expected: Int) -> Bool {
        buffer = 0
        count = 0
        hitMarker = false
        while position + 1 < bytes.count, bytes[position] == 0xFF, bytes[position + 1] == 0xFF { position += 1 }
        guard position + 1 < bytes.count, bytes[position] == 0xFF, Int(bytes[position + 1]) == 0xD0 + expected else { return false }
        position += 2
        return true
    }
}

/// Restart markers every `interval` units (0: none): counts the units down and, where a marker
/// is due, reads it.
private struct Restarts {
    let interval: Int
    private var seen = 0
    private var left: Int

    init(interval: Int) {
        self.interval = interval
        left = interval
    }

    /// Before each unit: true when a marker was read here, so the DC predictions (and a
    /// progressive scan's run of empty bands) start afresh.
    mutating func beforeUnit(_ reader: inout BitReader) throws -> Bool {
        guard interval > 0 else { return false }
        defer { left -= 1 }
        guard left == 0 else { return false }
        guard reader.restart(seen & 7) else { throw DecodeFailure() }
        seen += 1
        left = interval
        return true
    }
}

private struct Parser {
    let bytes: [UInt8]
    let maxPixels: Int
    var position = 2
    var quantTables = [[Int]?](repeating: nil, count: 4)
    var dcTables = [HuffmanTable?](repeating: nil, count: 4)
    var acTables = [HuffmanTable?](repeating: nil, count: 4)
    var restartInterval = 0
    var frame: Frame?

    struct FrameComponent {
        let id: Int, horizontal: Int, vertical: Int, quant: Int
        var width = 0, height = 0, blocksAcross = 0, blocksDown = 0, stride = 0
        var samples: [UInt8] = []
        /// Progressive: every block's coefficients (natural order, 16 bits as libjpeg keeps
        /// them) until the last scan, on the padded grid of `stride / 8` blocks a row.
        var coefficients: [Int16] = []
        /// Progressive: the quantisation table (zigzag order) as it was at the component's
        /// first scan, as libjpeg latches it.
        var latchedQuant: [Int]?
    }

    struct Frame {
        let width: Int, height: Int
        var components: [FrameComponent]
        let maxH: Int, maxV: Int
        let mcusAcross: Int, mcusDown: Int
        let progressive: Bool
    }

    init(bytes: [UInt8], maxPixels: Int) {
        self.bytes = bytes
        self.maxPixels = maxPixels
    }

    mutating func run() throws -> (width: Int, height: Int, components: [JPEGPlanes.Component]) {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw DecodeFailure() }
        var scanned = false
        while true {
            // Bytes between segments are skipped, as libjpeg skips them.
            while position < bytes.count && bytes[position] != 0xFF { position += 1 }
            while position + 1 < bytes.count && bytes[position + 1] == 0xFF { position += 1 }
            guard position + 1 < bytes.count else { throw DecodeFailure() }
            let marker = bytes[position + 1]
            position += 2
            if marker == 0xD9 { break }
            guard position + 1 < bytes.count else { throw DecodeFailure() }
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            guard length >= 2, position + length <= bytes.count else { throw DecodeFailure() }
            let segment = Array(bytes[(position + 2)..<(position + length)])
            switch marker {
            case 0xC0, 0xC1: try readFrame(segment, progressive: false)
            case 0xC2: try readFrame(segment, progressive: true)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: throw DecodeFailure()  // lossless, hierarchical, arithmetic
            case 0xC4: try readHuffman(segment)
            case 0xDB: try readQuant(segment)
            case 0xDD:
                guard segment.count >= 2 else { throw DecodeFailure() }
                restartInterval = Int(segment[0]) << 8 | Int(segment[1])
            case 0xEE:
                // Adobe's marker: transform 0 means RGB or CMYK, not YCbCr.
                if segment.count >= 12, segment[0...4].elementsEqual("Adobe".utf8), segment[11] == 0 { throw DecodeFailure() }
            case 0xDA:
                position += length
                try readScan(segment)
                scanned = true
                continue
            default: break  // APPn, COM and the like
            }
            position += length
        }
        guard scanned, var frame else { throw DecodeFailure() }
        if frame.progressive { try transformProgressive(&frame) }
        let components = frame.components.map {
            JPEGPlanes.Component(
                horizontal: $0.horizontal, vertical: $0.vertical, width: $0.width, height: $0.height,
                stride: $0.stride, samples: $0.samples)
        }
        return (frame.width, frame.height, components)
    }

    private mutating func readFrame(_ s: [UInt8], progressive: Bool) throws {
        guard frame == nil, s.count >= 6, s[0] == 8 else { throw DecodeFailure() }
        let height = Int(s[1]) << 8 | Int(s[2]), width = Int(s[3]) << 8 | Int(s[4]), n = Int(s[5])
        guard width > 0, height > 0, width * height <= maxPixels, n == 1 || n == 3, s.count >= 6 + 3 * n else { throw DecodeFailure() }
        var components: [FrameComponent] = []
        for i in 0..<n {
            let h = Int(s[7 + 3 * i] >> 4), v = Int(s[7 + 3 * i] & 15), q = Int(s[8 + 3 * i])
            guard (1...4).contains(h), (1...4).contains(v), q < 4 else { throw DecodeFailure() }
            components.append(FrameComponent(id: Int(s[6 + 3 * i]), horizontal: h, vertical: v, quant: q))
        }
        let maxH = components.map(\.horizontal).max() ?? 1, maxV = components.map(\.vertical).max() ?? 1
        let mcusAcross = (width + 8 * maxH - 1) / (8 * maxH), mcusDown = (height + 8 * maxV - 1) / (8 * maxV)
        for i in components.indices {
            var c = components[i]
            c.width = (width * c.horizontal + maxH - 1) / maxH
            c.height = (height * c.vertical + maxV - 1) / maxV
            c.blocksAcross = (c.width + 7) / 8
            c.blocksDown = (c.height + 7) / 8
            c.stride = mcusAcross * c.horizontal * 8
            c.samples = [UInt8](repeating: 0, count: c.stride * mcusDown * c.vertical * 8)
            if progressive { c.coefficients = [Int16](repeating: 0, count: c.samples.count) }
            components[i] = c
        }
        frame = Frame(
            width: width, height: height, components: components, maxH: maxH, maxV: maxV,
            mcusAcross: mcusAcross, mcusDown: mcusDown, progressive: progressive)
    }

    private mutating func readHuffman(_ s: [UInt8]) throws {
        var i = 0
        while i < s.count {
            guard i + 17 <= s.count else { throw DecodeFailure() }
            let kind = Int(s[i] >> 4), id = Int(s[i] & 15)
            guard kind <= 1, id < 4 else { throw DecodeFailure() }
            let counts = (0..<16).map { Int(s[i + 1 + $0]) }
            let total = counts.reduce(0, +)
            guard total <= 256, i + 17 + total <= s.count else { throw DecodeFailure() }
            let table = try HuffmanTable(counts: counts, symbols: Array(s[(i + 17)..<(i + 17 + total)]))
            if kind == 0 { dcTables[id] = table } else { acTables[id] = table }
            i += 17 + total
        }
    }

    private mutating func readQuant(_ s: [UInt8]) throws {
        var i = 0
        while i < s.count {
            let precision = Int(s[i] >> 4), id = Int(s[i] & 15)
            let size = precision == 0 ? 64 : 128
            guard precision <= 1, id < 4, i + 1 + size <= s.count else { throw DecodeFailure() }
            // Kept in zigzag order, as the coefficients arrive.
            quantTables[id] = (0..<64).map { k in
                precision == 0 ? Int(s[i + 1 + k]) : Int(s[i + 1 + 2 * k]) << 8 | Int(s[i + 2 + 2 * k])
            }
            i += 1 + size
        }
    }

    private mutating func readScan(_ s: [UInt8]) throws {
        guard var frame, s.count >= 1 else { throw DecodeFailure() }
        self.frame = nil  // one copy of the planes while they are written
        let n = Int(s[0])
        guard n >= 1, n <= frame.components.count, s.count >= 4 + 2 * n else { throw DecodeFailure() }
        if frame.progressive {
            try readProgressiveScan(s, &frame)
            self.frame = frame
            return
        }
        // Baseline: the whole spectrum, no successive approximation.
        guard s[1 + 2 * n] == 0, s[2 + 2 * n] == 63, s[3 + 2 * n] == 0 else { throw DecodeFailure() }
        var members: [(index: Int, dc: HuffmanTable, ac: HuffmanTable, quant: [Int])] = []
        for i in 0..<n {
            let id = Int(s[1 + 2 * i]), td = Int(s[2 + 2 * i] >> 4), ta = Int(s[2 + 2 * i] & 15)
            guard let index = frame.components.firstIndex(where: { $0.id == id }), td < 4, ta < 4,
                let dc = dcTables[td], let ac = acTables[ta], let quant = quantTables[frame.components[index].quant]
            else { throw DecodeFailure() }
            members.append((index, dc, ac, quant))
        }
        var reader = BitReader(bytes: bytes, position: position)
        var predictions = [Int](repeating: 0, count: n)
        var coefficients = [Int](repeating: 0, count: 64)
        var workspace = [Int](repeating: 0, count: 72)

        // Which blocks one MCU holds: every component's h x v when interleaved, else one block.
        let interleaved = n > 1
        let single = frame.components[members[0].index]
        let mcusAcross = interleaved ? frame.mcusAcross : single.blocksAcross
        let mcusDown = interleaved ? frame.mcusDown : single.blocksDown
        var restarts = Restarts(interval: restartInterval)
        let layout = members.map { member in
            let c = frame.components[member.index]
            return interleaved ? (c.horizontal, c.vertical, c.stride) : (1, 1, c.stride)
        }

        for mcuY in 0..<mcusDown {
            for mcuX in 0..<mcusAcross {
                if try restarts.beforeUnit(&reader) {
                    for i in predictions.indices { predictions[i] = 0 }
                }
                for (m, member) in members.enumerated() {
                    // Not the component itself: holding its samples would copy them on every write.
                    let (across, down, stride) = layout[m]
                    for by in 0..<down {
                        for bx in 0..<across {
                            try decodeBlock(
                                &reader, dc: member.dc, ac: member.ac, quant: member.quant,
                                prediction: &predictions[m], into: &coefficients)
                            let blockX = mcuX * across + bx, blockY = mcuY * down + by
                            coefficients.withUnsafeBufferPointer { coef in
                                workspace.withUnsafeMutableBufferPointer { ws in
                                    frame.components[member.index].samples.withUnsafeMutableBufferPointer { out in
                                        // Never nil: none of the three is empty.
                                        guard let coef = coef.baseAddress, let ws = ws.baseAddress, let out = out.baseAddress else { return }
                                        JPEGIntegerIDCT.transform(coef, workspace: ws, into: out + blockY * 8 * stride + blockX * 8, stride: stride)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        skipToNextMarker(from: reader.position)
        self.frame = frame
    }

    /// The entropy-coded data ends at the next marker that is not a restart marker.
    private mutating func skipToNextMarker(from start: Int) {
        position = start
        while position + 1 < bytes.count && !(bytes[position] == 0xFF && bytes[position + 1] != 0 && !(0xD0...0xD7).contains(bytes[position + 1])) {
            position += 1
        }
    }

    /// One scan of a progressive JPEG (T.81 Annex G): DC or one band of AC coefficients, first
    /// pass or one more bit of each, added to the coefficients kept for the end.
    private mutating func readProgressiveScan(_ s: [UInt8], _ frame: inout Frame) throws {
        let n = Int(s[0])
        let start = Int(s[1 + 2 * n]), end = Int(s[2 + 2 * n])
        let high = Int(s[3 + 2 * n] >> 4), low = Int(s[3 + 2 * n] & 15)
        // DC scans hold DC only; AC scans one component's band; refinements one bit more.
        guard start <= end, end <= 63, (start == 0) == (end == 0), start == 0 || n == 1, low <= 13,
            high == 0 || high == low + 1
        else { throw DecodeFailure() }
        var members: [(index: Int, table: HuffmanTable?)] = []
        for i in 0..<n {
            let id = Int(s[1 + 2 * i]), td = Int(s[2 + 2 * i] >> 4), ta = Int(s[2 + 2 * i] & 15)
            guard let index = frame.components.firstIndex(where: { $0.id == id }), td < 4, ta < 4 else { throw DecodeFailure() }
            // DC refinements read raw bits; everything else needs its table.
            let table = start == 0 ? (high == 0 ? dcTables[td] : nil) : acTables[ta]
            guard table != nil || (start == 0 && high > 0) else { throw DecodeFailure() }
            if frame.components[index].latchedQuant == nil {
                guard let quant = quantTables[frame.components[index].quant] else { throw DecodeFailure() }
                frame.components[index].latchedQuant = quant
            }
            members.append((index, table))
        }
        var reader = BitReader(bytes: bytes, position: position)
        var predictions = [Int](repeating: 0, count: n)
        var endOfBands = 0
        let interleaved = n > 1
        let single = frame.components[members[0].index]
        let mcusAcross = interleaved ? frame.mcusAcross : single.blocksAcross
        let mcusDown = interleaved ? frame.mcusDown : single.blocksDown
        let layout = members.map { member in
            let c = frame.components[member.index]
            return interleaved ? (c.horizontal, c.vertical, c.stride / 8) : (1, 1, c.stride / 8)
        }
        var restarts = Restarts(interval: restartInterval)
        for mcuY in 0..<mcusDown {
            for mcuX in 0..<mcusAcross {
                if try restarts.beforeUnit(&reader) {
                    for i in predictions.indices { predictions[i] = 0 }
                    endOfBands = 0
                }
                for (m, member) in members.enumerated() {
                    let (across, down, blocksPerRow) = layout[m]
                    for by in 0..<down {
                        for bx in 0..<across {
                            let block = ((mcuY * down + by) * blocksPerRow + mcuX * across + bx) * 64
                            try frame.components[member.index].coefficients.withUnsafeMutableBufferPointer { all in
                                guard let base = all.baseAddress, block + 64 <= all.count else { throw DecodeFailure() }
                                let coef = base + block
                                if start == 0 {
                                    if let table = member.table {
                                        let t = try reader.decode(table)
                                        guard t <= 16 else { throw DecodeFailure() }
                                        predictions[m] += t == 0 ? 0 : reader.signed(t)
                                        coef[0] = Int16(truncatingIfNeeded: predictions[m] << low)
                                    } else if reader.bits(1) == 1 {
                                        coef[0] |= Int16(truncatingIfNeeded: 1 << low)
                                    }
                                } else if let table = member.table {
                                    if high == 0 {
                                        try Self.firstACPass(&reader, table, coef, start, end, low, &endOfBands)
                                    } else {
                                        try Self.refineAC(&reader, table, coef, start, end, low, &endOfBands)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        skipToNextMarker(from: reader.position)
    }

    /// An AC band's first pass: run-length coded values scaled by 2^low, and runs of bands
    /// that end at once (EOB runs).
    private static func firstACPass(
        _ reader: inout BitReader, _ table: HuffmanTable, _ coef: UnsafeMutablePointer<Int16>,
        _ start: Int, _ end: Int, _ low: Int, _ endOfBands: inout Int
    ) throws {
        if endOfBands > 0 {
            endOfBands -= 1
            return
        }
        var k = start
        while k <= end {
            let rs = try reader.decode(table)
            let run = rs >> 4, size = rs & 15
            if size == 0 {
                if run < 15 {
                    endOfBands = (1 << run) - 1 + (run > 0 ? reader.bits(run) : 0)
                    return
                }
                k += 16
                continue
            }
            k += run
            guard k <= end else { throw DecodeFailure() }
            coef[zigzag[k]] = Int16(truncatingIfNeeded: reader.signed(size) << low)
            k += 1
        }
    }

    /// One more bit of an AC band: a bit for every coefficient already nonzero, and new
    /// coefficients of +-2^low placed among the zero ones (T.81 G.1.2.3).
    private static func refineAC(
        _ reader: inout BitReader, _ table: HuffmanTable, _ coef: UnsafeMutablePointer<Int16>,
        _ start: Int, _ end: Int, _ low: Int, _ endOfBands: inout Int
    ) throws {
        let plus = 1 << low, minus = -1 << low
        func refine(_ z: Int) {
            let c = Int(coef[z])
            if reader.bits(1) == 1 && c & plus == 0 {
                coef[z] = Int16(truncatingIfNeeded: c >= 0 ? c + plus : c + minus)
            }
        }
        var k = start
        if endOfBands == 0 {
            while k <= end {
                let rs = try reader.decode(table)
                var run = rs >> 4
                let size = rs & 15
                var value = 0
                if size != 0 {
                    guard size == 1 else { throw DecodeFailure() }
                    value = reader.bits(1) == 1 ? plus : minus
                } else if run != 15 {
                    endOfBands = 1 << run
                    if run > 0 { endOfBands += reader.bits(run) }
                    break
                }
                // Past `run` zero coefficients (refining the nonzero ones met), to the next zero.
                while k <= end {
                    let z = zigzag[k]
                    if coef[z] != 0 {
                        refine(z)
                    } else {
                        if run == 0 { break }
                        run -= 1
                    }
                    k += 1
                }
                if value != 0 {
                    guard k <= end else { throw DecodeFailure() }
                    coef[zigzag[k]] = Int16(truncatingIfNeeded: value)
                }
                k += 1
            }
        }
        if endOfBands > 0 {
            while k <= end {
                let z = zigzag[k]
                if coef[z] != 0 { refine(z) }
                k += 1
            }
            endOfBands -= 1
        }
    }

    /// After the last scan: each block dequantised with its latched table and transformed.
    private func transformProgressive(_ frame: inout Frame) throws {
        var dequantised = [Int](repeating: 0, count: 64)
        var workspace = [Int](repeating: 0, count: 72)
        for i in frame.components.indices {
            guard let quant = frame.components[i].latchedQuant else { throw DecodeFailure() }
            let stride = frame.components[i].stride
            let blocks = frame.components[i].coefficients.count / 64
            let blocksPerRow = stride / 8
            frame.components[i].coefficients.withUnsafeBufferPointer { coef in
                frame.components[i].samples.withUnsafeMutableBufferPointer { out in
                    dequantised.withUnsafeMutableBufferPointer { dq in
                        workspace.withUnsafeMutableBufferPointer { ws in
                            guard let coef = coef.baseAddress, let out = out.baseAddress, let dq = dq.baseAddress, let ws = ws.baseAddress else {
                                return
                            }
                            for block in 0..<blocks {
                                let c = coef + block * 64
                                for k in 0..<64 { dq[Self.zigzag[k]] = Int(c[Self.zigzag[k]]) * quant[k] }
                                let row = block / blocksPerRow, column = block % blocksPerRow
                                JPEGIntegerIDCT.transform(dq, workspace: ws, into: out + row * 8 * stride + column * 8, stride: stride)
                            }
                        }
                    }
                }
            }
            frame.components[i].coefficients = []
        }
    }

    private static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
        28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
        54, 47, 55, 62, 63,
    ]

    private func decodeBlock(
        _ reader: inout BitReader, dc: HuffmanTable, ac: HuffmanTable, quant: [Int],
        prediction: inout Int, into coefficients: inout [Int]
    ) throws {
        for i in 0..<64 { coefficients[i] = 0 }
        let t = try reader.decode(dc)
        guard t <= 16 else { throw DecodeFailure() }
        prediction += t == 0 ? 0 : reader.signed(t)
        // libjpeg keeps coefficients in 16 bits.
        coefficients[0] = Int(Int16(truncatingIfNeeded: prediction)) * quant[0]
        var k = 1
        while k < 64 {
            let rs = try reader.decode(ac)
            let run = rs >> 4, size = rs & 15
            if size == 0 {
                if run != 15 { break }
                k += 16
                continue
            }
            k += run
            guard k < 64 else { throw DecodeFailure() }
            coefficients[Self.zigzag[k]] = Int(Int16(truncatingIfNeeded: reader.signed(size))) * quant[k]
            k += 1
        }
    }
}
