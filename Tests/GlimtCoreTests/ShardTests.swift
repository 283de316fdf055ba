import XCTest

@testable import GlimtCore

/// Shards: `K/N` as written, and a video's shard from its content key alone, the same on every
/// machine and in every release (a worker of one version and a worker of the next split a folder
/// the same way), spread evenly.
final class ShardTests: XCTestCase {
    func testKOverNIsParsedAndAnythingElseRefused() {
        XCTAssertEqual(Shard("2/4"), Shard(number: 2, count: 4))
        XCTAssertEqual(Shard("1/1")?.description, "1/1")
        for bad in ["0/4", "5/4", "4", "1/0", "/4", "1/", "a/b", "1/4/2", "-1/4", "+1/4", " 1/4", "1/10001", "１/4"] {
            XCTAssertNil(Shard(bad), bad)
        }
    }

    /// Pinned values: a change to the hash would split libraries differently from workers that
    /// are already running.
    func testAKeysShardIsFixed() {
        let keys = ["00000000000000000000000000000000", "4b2f9a0c1d3e5f60718293a4b5c6d7e8", "ffffffffffffffffffffffffffffffff"]
        XCTAssertEqual(keys.map { Shard.number(of: $0, count: 4) }, [2, 4, 1])
        XCTAssertEqual(keys.map { Shard.number(of: $0, count: 1000) }, [66, 584, 393])
        XCTAssertTrue(keys.allSatisfy { Shard.number(of: $0, count: 1) == 1 })
    }

    func testKeysSpreadEvenlyAndEachIsInExactlyOneShard() {
        var counts = [Int](repeating: 0, count: 8)
        for i in 0..<8000 {
            let key = String(format: "%016llx%016llx", UInt64(i) &* 0x9e37_79b9_7f4a_7c15, UInt64(i))
            let inShards = (1...8).filter { Shard(number: $0, count: 8)!.contains(contentKey: key) }
            XCTAssertEqual(inShards.count, 1)
            counts[inShards[0] - 1] += 1
        }
        XCTAssertTrue(counts.allSatisfy { (900...1100).contains($0) }, "\(counts)")
    }
}
