/// An 8-bit interleaved picture seen as a network input: tensor channel `c` takes byte channel
/// `order[c]`, scaled as `(byte + offset) * scale`. The picture may be smaller than the map the
/// network sees (`paddedWidth` x `paddedHeight`): pixels beyond it read as zero, so padding to
/// a multiple of 32 costs no copy.
public struct ByteImage {
    public let data: UnsafePointer<UInt8>
    public let width: Int
    public let height: Int
    public let bytesPerPixel: Int
    public let order: [Int]
    public let offset: Float
    public let scale: Float
    public let paddedWidth: Int
    public let paddedHeight: Int

    public init(
        data: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerPixel: Int = 3, order: [Int] = [0, 1, 2],
        offset: Float = 0, scale: Float = 1, paddedWidth: Int? = nil, paddedHeight: Int? = nil
    ) {
        precondition(order.allSatisfy { $0 < bytesPerPixel }, "ByteImage: channel order out of range")
        self.data = data
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.order = order
        self.offset = offset
        self.scale = scale
        self.paddedWidth = max(width, paddedWidth ?? width)
        self.paddedHeight = max(height, paddedHeight ?? height)
    }

    public var channels: Int { order.count }
}

/// Reusable feature maps for a network whose layer shapes repeat from call to call: the n-th
/// request of a run gets the n-th tensor of the previous run when the shape matches. Reuse
/// avoids allocating and page-faulting megabytes per call; the kernels overwrite every value.
public final class TensorArena: @unchecked Sendable {
    private var tensors: [Tensor] = []
    private var cursor = 0

    public init() {}

    /// Two buffers that alternate along a chain of layers whose maps are each read only by the
    /// next layer: the chain's working set is two maps (in cache) instead of all of them.
    private var buffers: [AlignedFloats] = []
    private var views: [Tensor?] = [nil, nil]

    public func reset() { cursor = 0 }

    /// A map in buffer `slot` (0 or 1), overwriting the last map there: the caller alternates, so
    /// a layer's input and output never share a buffer. The buffers grow to the largest map asked.
    public func alternating(_ slot: Int, height: Int, width: Int, channels: Int) -> Tensor {
        if let t = views[slot], t.height == height, t.width == width, t.channels == channels { return t }
        let count = height * width * roundUp(channels, to: laneCount)
        while buffers.count < 2 { buffers.append(AlignedFloats(count: count)) }
        if buffers[slot].count < count { buffers[slot] = AlignedFloats(count: count) }
        let t = Tensor(height: height, width: width, channels: channels, in: buffers[slot])
        views[slot] = t
        return t
    }

    public func next(height: Int, width: Int, channels: Int) -> Tensor {
        defer { cursor += 1 }
        if cursor < tensors.count {
            let t = tensors[cursor]
            if t.height == height && t.width == width && t.channels == channels { return t }
            tensors[cursor] = Tensor(height: height, width: width, channels: channels)
        } else {
            tensors.append(Tensor(height: height, width: width, channels: channels))
        }
        return tensors[cursor]
    }
}
