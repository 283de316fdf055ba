/// One of N parts of a set of videos, for N workers that each fill a library of their own
/// (`glimt-pure scan --shard K/N`, then `glimt-pure merge`). A video's shard is a hash of its
/// content key, never of its path or its place in a listing: the same on every machine, however
/// the folder is mounted or sorted, and the same for a copy of the video (so its copies meet in
/// one shard and are counted once there).
public struct Shard: Equatable, Sendable, CustomStringConvertible {
    /// 1 to `count`.
    public let number: Int
    public let count: Int
    public static let maxCount = 10_000

    public init?(number: Int, count: Int) {
        guard (1...Self.maxCount).contains(count), (1...count).contains(number) else { return nil }
        self.number = number
        self.count = count
    }

    /// `K/N`, as written on a command line; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }), let k = Int(parts[0]),
            let n = Int(parts[1])
        else { return nil }
        self.init(number: k, count: n)
    }

    public var description: String { "\(number)/\(count)" }

    public func contains(contentKey: String) -> Bool { Self.number(of: contentKey, count: count) == number }

    /// The shard (1 to `count`) of a content key: FNV-1a over the key's text, then a 64-bit mixer
    /// (splitmix64's finaliser) so that every bit of the key reaches the low bits a modulo keeps.
    public static func number(of contentKey: String, count: Int) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in contentKey.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        h = (h ^ (h >> 30)) &* 0xbf58_476d_1ce4_e5b9
        h = (h ^ (h >> 27)) &* 0x94d0_49bb_1331_11eb
        h ^= h >> 31
        return Int(h % UInt64(count)) + 1
    }
}
