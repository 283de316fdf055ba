import GlimtCore
import XCTest

/// Seeded random mutations of a file's bytes (bits flipped, bytes set to edge values, slices
/// cut, repeated or inserted), so a fuzzing loop's failure reproduces.
public struct Mutator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(1, bound)))
    }

    /// One to four edits inside `range` of `bytes`.
    public mutating func mutate(_ bytes: [UInt8], within range: Range<Int>) -> [UInt8] {
        var b = bytes
        for _ in 0...next(4) {
            let lo = range.lowerBound, hi = min(range.upperBound, b.count)
            guard hi > lo else { break }
            let at = lo + next(hi - lo)
            switch next(6) {
            case 0: b[at] ^= UInt8(1 << next(8))
            case 1: b[at] = [0, 0xff, 0x7f, 0x80, 0x30, 0x22][next(6)]
            case 2: b.removeSubrange(at..<min(hi, at + 1 + next(16)))
            case 3: b.insert(contentsOf: b[at..<min(hi, at + 1 + next(8))], at: at)
            case 4: b.insert(UInt8(next(256)), at: at)
            default: b.removeSubrange(at..<hi)  // cut short
            }
        }
        return b
    }
}

/// Fails unless `error` is a one-line `GlimtError`: what every refusal of a damaged file must be.
public func assertOneLineError(_ error: Error, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let e = error as? GlimtError else { return XCTFail("\(what): not a GlimtError: \(error)", file: file, line: line) }
    XCTAssertFalse(e.description.contains("\n"), "\(what): \(e.description)", file: file, line: line)
}
