import Foundation
import SFaceWeights
import TestSupport
import XCTest

@testable import Faces
@testable import GlimtCore

/// A bounded random-mutation loop over what glimt parses itself (see TestSupport's `Mutator`):
/// each mutant must either parse or fail with a one-line error; a trap fails the whole run.
final class WeightFileMutationTests: XCTestCase {
    /// YuNet's weight file, its CRC fixed after each mutation so the parser itself is reached.
    func testWeightFilesSurviveMutations() throws {
        let original = [UInt8](try Data(contentsOf: BakedWeights.locate("yunet").get()))
        var m = Mutator(state: 1)
        var parsed = 0
        for i in 0..<1500 {
            var mutant = m.mutate(original, within: 8..<(original.count - 4))
            guard mutant.count >= 4 else { continue }
            let crc = mutant.prefix(mutant.count - 4).withUnsafeBytes { CRC32.checksum($0) }
            withUnsafeBytes(of: crc.littleEndian) { mutant.replaceSubrange((mutant.count - 4)..., with: $0) }
            do {
                _ = try YuNet(weights: WeightFile(data: Data(mutant)))
                parsed += 1
            } catch {
                assertOneLineError(error, "weight mutant \(i)")
            }
        }
        XCTAssertLessThan(parsed, 1500, "some mutants must be refused")
    }
}
