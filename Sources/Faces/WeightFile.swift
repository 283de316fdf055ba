import Foundation
import GlimtCore

/// A parsed `.glw` weight file (format: docs/weights-format.md): named tensors, dequantized to
/// float32 on load. Every structural problem is a thrown error with the reason, never a silently
/// wrong tensor.
public struct WeightFile: Sendable {
    public struct Entry: Sendable {
        public let shape: [Int]
        private let floats: [Float]
        /// The int8 blocks as stored, for kind-1 records; nil for float ones.
        public var quantized: Quantized? = nil

        init(shape: [Int], values: [Float]) {
            self.shape = shape
            floats = values
        }

        init(shape: [Int], quantized: Quantized) {
            self.shape = shape
            floats = []
            self.quantized = quantized
        }

        /// The values as floats: int8 blocks are expanded when asked for, not at load (SFace's
        /// fully connected layer runs from its blocks, and its 25.7 MB of floats were made for nothing).
        public var values: [Float] { quantized?.dequantized() ?? floats }
    }

    /// A kind-1 record as stored: `values` is `Float(Int32(q) - Int32(zeroPoints[s])) * scales[s]`.
    public struct Quantized: Sendable {
        public let layout: [Int]
        public let axis: Int
        public let blockSize: Int
        public let scales: [Float]
        public let zeroPoints: [Int8]
        public let q: [Int8]

        /// `Float(q - zero point) * scale`, block by block. Every index is inside the arrays: the
        /// reader checked that layout's product is the count and sized the scales to the blocks.
        func dequantized() -> [Float] {
            let outer = layout[..<axis].reduce(1, *), row = layout[axis...].reduce(1, *)
            var values = [Float](repeating: 0, count: q.count)
            values.withUnsafeMutableBufferPointer { v in
                for o in 0..<outer { dequantize(outer: o, into: UnsafeMutableBufferPointer(rebasing: v[(o * row)...])) }
            }
            return values
        }

        /// The values of one index `o` of the dimensions before the block axis (one row of a
        /// matrix blocked along its columns), into `v`: what `dequantized()` holds there, without
        /// making the whole tensor (SFace's fc1 is 25.7 MB of floats).
        public func dequantize(outer o: Int, into v: UnsafeMutableBufferPointer<Float>) {
            let n = layout[axis], inner = layout[(axis + 1)...].reduce(1, *)
            let blocks = (n + blockSize - 1) / blockSize
            precondition(v.count >= n * inner, "room for one outer index")
            q.withUnsafeBufferPointer { q in
                zeroPoints.withUnsafeBufferPointer { zeros in
                    scales.withUnsafeBufferPointer { scales in
                        // A block at a time, so the loop over its values has one scale and one
                        // zero point per inner index (one in all for a matrix: that loop vectorises).
                        for b in 0..<blocks {
                            let s = (o * blocks + b) * inner
                            if inner == 1 {
                                let zero = Int32(zeros[s]), scale = scales[s]
                                for j in b * blockSize..<min(n, (b + 1) * blockSize) { v[j] = Float(Int32(q[o * n + j]) - zero) * scale }
                                continue
                            }
                            for j in b * blockSize..<min(n, (b + 1) * blockSize) {
                                let base = (o * n + j) * inner
                                for i in 0..<inner {
                                    v[j * inner + i] = Float(Int32(q[base + i]) - Int32(zeros[s + i])) * scales[s + i]
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    public static let magic = Array("GLIMTWTS".utf8)
    public static let version: UInt32 = 1

    public let modelName: String
    /// sha256 of the ONNX file the weights were baked from, as lowercase hex.
    public let sourceDigest: String
    public let tensorNames: [String]
    private let entries: [String: Entry]

    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw GlimtError("cannot read weight file (\(error.localizedDescription))", path: url.path)
        }
        do { try self.init(data: data) } catch let e as GlimtError { throw e.at(url.path) }
    }

    public init(data: Data) throws {
        var r = ByteReader(data)
        guard data.count >= 12, Array(data.prefix(8)) == Self.magic else { throw GlimtError("not a glimt weight file (bad magic)") }
        guard data.count >= 8 + 4 + 32 + 4 + 4 else { throw GlimtError("weight file truncated (\(data.count) bytes)") }
        let stored = data.suffix(4).withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
        let computed = data.prefix(data.count - 4).withUnsafeBytes { CRC32.checksum($0) }
        try r.skip(8)
        let version = try r.u32()
        guard version == Self.version else { throw GlimtError("unsupported weight format version \(version) (this build reads \(Self.version))") }
        guard stored == computed else {
            throw GlimtError(String(format: "weight file corrupt: CRC-32 is %08x, expected %08x", computed, stored))
        }
        sourceDigest = try r.bytes(32).map { String(format: "%02x", $0) }.joined()
        modelName = try r.string()
        _ = try r.string()  // the source file's name: provenance for people, not needed here
        let count = Int(try r.u32())
        var entries: [String: Entry] = [:]
        var names: [String] = []
        for _ in 0..<count {
            let name = try r.string()
            let entry = try Self.readTensor(&r, name: name)
            guard entries[name] == nil else { throw GlimtError("tensor \(name) appears twice") }
            entries[name] = entry
            names.append(name)
        }
        guard r.offset == data.count - 4 else { throw GlimtError("\(data.count - 4 - r.offset) unexpected bytes after the last tensor") }
        self.entries = entries
        tensorNames = names
    }

    private static func readTensor(_ r: inout ByteReader, name: String) throws -> Entry {
        let kind = try r.u8()
        let shape = try r.shape()
        let count = shape.reduce(1, *)
        switch kind {
        case 0:
            return Entry(shape: shape, values: try r.floats(count))
        case 1:
            let layout = try r.shape()
            guard !layout.isEmpty, layout.reduce(1, *) == count else {
                throw GlimtError("tensor \(name): quantized layout \(layout) does not match shape \(shape)")
            }
            let axis = Int(try r.u8())
            let block = Int(try r.u32())
            guard axis < layout.count, block >= 1 else { throw GlimtError("tensor \(name): bad quantization axis \(axis) or block \(block)") }
            let outer = layout[..<axis].reduce(1, *), n = layout[axis], inner = layout[(axis + 1)...].reduce(1, *)
            let blocks = (n + block - 1) / block
            let scaleCount = outer * blocks * inner
            let scales = try r.floats(scaleCount)
            let zeros = try r.int8s(scaleCount)
            let q = try r.int8s(count)
            return Entry(shape: shape, quantized: Quantized(layout: layout, axis: axis, blockSize: block, scales: scales, zeroPoints: zeros, q: q))
        default:
            throw GlimtError("tensor \(name): unknown kind \(kind)")
        }
    }

    public func entry(_ name: String) -> Entry? { entries[name] }

    /// The tensor's values, after checking that its shape is the one the network needs.
    public func tensor(_ name: String, shape: [Int]) throws -> [Float] {
        guard let e = entries[name] else { throw GlimtError("\(modelName) weights: missing tensor \(name)") }
        guard e.shape == shape else {
            throw GlimtError("\(modelName) weights: tensor \(name) has shape \(e.shape), expected \(shape)")
        }
        return e.values
    }

    /// A single-value tensor (stored as shape [1]).
    public func scalar(_ name: String) throws -> Float { try tensor(name, shape: [1])[0] }
}

/// Bounds-checked little-endian reader over untrusted bytes.
struct ByteReader {
    let data: Data
    private(set) var offset: Int

    init(_ data: Data) {
        self.data = data
        offset = 0
    }

    private mutating func take(_ n: Int) throws -> Data {
        guard n >= 0, n <= data.count - offset else { throw GlimtError("weight file truncated at byte \(offset) (needs \(n) more)") }
        let start = data.startIndex + offset
        offset += n
        return data[start..<(start + n)]
    }

    mutating func skip(_ n: Int) throws { _ = try take(n) }
    mutating func bytes(_ n: Int) throws -> [UInt8] { Array(try take(n)) }
    mutating func u8() throws -> UInt8 { try take(1).first! }

    mutating func u16() throws -> UInt16 {
        try take(2).withUnsafeBytes { UInt16(littleEndian: $0.loadUnaligned(as: UInt16.self)) }
    }

    mutating func u32() throws -> UInt32 {
        try take(4).withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
    }

    mutating func string() throws -> String {
        let n = Int(try u16())
        guard let s = String(bytes: try take(n), encoding: .utf8) else { throw GlimtError("weight file: name at byte \(offset) is not UTF-8") }
        return s
    }

    mutating func shape() throws -> [Int] {
        let rank = Int(try u8())
        guard rank <= 8 else { throw GlimtError("weight file: rank \(rank) at byte \(offset)") }
        var dims: [Int] = []
        for _ in 0..<rank { dims.append(Int(try u32())) }
        // Guard the element count before allocating: a hostile header must not ask for terabytes.
        var total = 1
        for d in dims {
            let (m, overflow) = total.multipliedReportingOverflow(by: d)
            guard !overflow, m <= 1 << 28 else { throw GlimtError("weight file: tensor shape \(dims) too large") }
            total = m
        }
        return dims
    }

    mutating func floats(_ n: Int) throws -> [Float] {
        let raw = try take(n * 4)
        return raw.withUnsafeBytes { p in
            (0..<n).map { Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    mutating func int8s(_ n: Int) throws -> [Int8] {
        let raw = try take(n)
        // A byte copy: mapping Data element by element is slow on SFace's 6.4 M weights.
        return [Int8](unsafeUninitializedCapacity: n) { buffer, count in
            raw.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            count = n
        }
    }
}
