import Foundation

/// A 128-bit hash that is the same in every run and on every machine (Swift's `Hasher` is seeded
/// anew in each process): two independent 64-bit FNV-1a streams, the second also seeing each
/// byte's position, so that the halves do not collide together. For recognising content (see
/// `ContentKey`) and what a kept result was made from, not for secrets.
public struct StableHash: Sendable {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x6c62_272e_07bb_0142
    private var count: UInt64 = 0
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    public init() {}

    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var a = self.a, b = self.b, count = self.count
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* Self.prime
            b = (b ^ (UInt64(byte) &+ count)) &* Self.prime
            count &+= 1
        }
        (self.a, self.b, self.count) = (a, b, count)
    }

    /// A text, then a separator no UTF-8 text holds: "ab" + "c" and "a" + "bc" differ.
    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(0xff)) { add($0) }
    }

    public mutating func add(_ number: UInt64) {
        withUnsafeBytes(of: number.littleEndian) { add($0) }
    }

    public var hex: String { String(format: "%016llx%016llx", a, b) }
}
