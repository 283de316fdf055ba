import Foundation

/// Lanes per vector: kernels work on SIMD16<Float> (one AVX-512 register; two AVX2 registers).
public let laneCount = 16
public typealias Vec = SIMD16<Float>

@inline(__always) public func roundUp(_ n: Int, to m: Int) -> Int { (n + m - 1) / m * m }

/// A feature map in channels-last layout (height, width, channels), one image.
///
/// Each pixel's channels are padded to a multiple of `laneCount` and the padding is kept at zero,
/// so every kernel works on whole vectors with no tails. Storage is 64-byte aligned and owned by
/// the tensor; kernels write into tensors the caller allocated, so a forward pass can reuse them.
public final class Tensor: @unchecked Sendable {
    public let height: Int
    public let width: Int
    public let channels: Int
    /// Floats between consecutive pixels (channels rounded up to `laneCount`).
    public let pixelStride: Int
    public let data: UnsafeMutablePointer<Float>
    /// For a view: the buffer it lives in (kept alive by the view); nil when the tensor owns `data`.
    private let storage: AlignedFloats?

    public var pixelCount: Int { height * width }

    public init(height: Int, width: Int, channels: Int) {
        precondition(height > 0 && width > 0 && channels > 0, "Tensor: empty shape \(height)x\(width)x\(channels)")
        self.height = height
        self.width = width
        self.channels = channels
        self.pixelStride = roundUp(channels, to: laneCount)
        let count = height * width * pixelStride
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, 64, count * MemoryLayout<Float>.stride) == 0, let raw else {
            fatalError("Tensor: cannot allocate \(count) floats")
        }
        data = raw.bindMemory(to: Float.self, capacity: count)
        data.initialize(repeating: 0, count: count)
        storage = nil
    }

    /// A view of `buffer` from `offset` floats on (a multiple of `laneCount`, to stay aligned),
    /// which must hold `height * width * roundUp(channels, 16)` floats from there. Its values are
    /// whatever the buffer holds: for outputs that a kernel overwrites whole (every kernel writes
    /// every value, padding lanes included), or maps a kernel wrote through another view.
    public init(height: Int, width: Int, channels: Int, in buffer: AlignedFloats, offset: Int = 0) {
        precondition(height > 0 && width > 0 && channels > 0, "Tensor: empty shape \(height)x\(width)x\(channels)")
        self.height = height
        self.width = width
        self.channels = channels
        self.pixelStride = roundUp(channels, to: laneCount)
        precondition(offset >= 0 && offset % laneCount == 0, "Tensor: view offset \(offset) is not a whole number of vectors")
        precondition(
            buffer.count - offset >= height * width * pixelStride,
            "Tensor: buffer of \(buffer.count) floats too small for \(height)x\(width)x\(channels) at \(offset)")
        data = buffer.data + offset
        storage = buffer
    }

    deinit { if storage == nil { free(data) } }

    /// Builds a tensor from plain channels-last values (`h * w * c` floats, no padding).
    public convenience init(height: Int, width: Int, channels: Int, values: [Float]) {
        precondition(values.count == height * width * channels, "Tensor: \(values.count) values for \(height)x\(width)x\(channels)")
        self.init(height: height, width: width, channels: channels)
        values.withUnsafeBufferPointer { src in
            for p in 0..<(height * width) {
                (data + p * pixelStride).update(from: src.baseAddress! + p * channels, count: channels)
            }
        }
    }

    /// The values without channel padding, channels-last.
    public func values() -> [Float] {
        var out = [Float](repeating: 0, count: height * width * channels)
        out.withUnsafeMutableBufferPointer { dst in
            for p in 0..<(height * width) {
                (dst.baseAddress! + p * channels).update(from: data + p * pixelStride, count: channels)
            }
        }
        return out
    }

    @inline(__always) public func pixel(_ y: Int, _ x: Int) -> UnsafeMutablePointer<Float> {
        data + (y * width + x) * pixelStride
    }

    public subscript(y: Int, x: Int, c: Int) -> Float {
        get { data[(y * width + x) * pixelStride + c] }
        set { data[(y * width + x) * pixelStride + c] = newValue }
    }

    public func sameShape(_ other: Tensor) -> Bool {
        height == other.height && width == other.width && channels == other.channels
    }
}

@inline(__always) func loadVec(_ p: UnsafePointer<Float>) -> Vec {
    UnsafeRawPointer(p).loadUnaligned(as: Vec.self)
}

@inline(__always) func loadVec(_ p: UnsafeMutablePointer<Float>) -> Vec {
    UnsafeRawPointer(p).loadUnaligned(as: Vec.self)
}

@inline(__always) func storeVec(_ v: Vec, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vec.self)
}

/// A 64-byte aligned float array for packed weights, so panels load whole cache lines.
public final class AlignedFloats: @unchecked Sendable {
    public let count: Int
    public let data: UnsafeMutablePointer<Float>

    public init(count: Int) {
        self.count = count
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, 64, max(count, 1) * MemoryLayout<Float>.stride) == 0, let raw else {
            fatalError("AlignedFloats: cannot allocate \(count) floats")
        }
        data = raw.bindMemory(to: Float.self, capacity: max(count, 1))
        data.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { free(data) }
}

/// A 64-byte aligned byte array for int8 weights.
public final class AlignedBytes: @unchecked Sendable {
    public let count: Int
    public let data: UnsafeMutablePointer<Int8>

    public init(count: Int) {
        self.count = count
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, 64, max(count, 1)) == 0, let raw else {
            fatalError("AlignedBytes: cannot allocate \(count) bytes")
        }
        data = raw.bindMemory(to: Int8.self, capacity: max(count, 1))
        data.initialize(repeating: 0, count: max(count, 1))
    }

    deinit { free(data) }
}
