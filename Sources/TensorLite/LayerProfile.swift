import Foundation

/// Wall time and floating-point operations per named layer, summed over runs: models time each
/// phase through this when asked, and pay nothing when not.
public final class LayerProfile: @unchecked Sendable {
    public private(set) var order: [String] = []
    public private(set) var seconds: [String: Double] = [:]
    public private(set) var flops: [String: Int] = [:]

    public init() {}

    @inline(__always)
    public func measure<T>(_ name: String, flops: Int = 0, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if seconds[name] == nil { order.append(name) }
        seconds[name, default: 0] += elapsed
        self.flops[name, default: 0] += flops
        return result
    }

    public var total: Double { seconds.values.reduce(0, +) }
}

extension Optional where Wrapped == LayerProfile {
    /// Runs `body`, timing it only when a profile is present.
    @inline(__always)
    public func measure<T>(_ name: String, flops: Int = 0, _ body: () throws -> T) rethrows -> T {
        if let p = self { return try p.measure(name, flops: flops, body) }
        return try body()
    }
}
