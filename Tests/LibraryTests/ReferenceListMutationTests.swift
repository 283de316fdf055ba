import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import GlimtCore
@testable import Imaging
@testable import Library

/// A bounded random-mutation loop over what glimt parses itself (see TestSupport's `Mutator`):
/// each mutant must either parse or fail with a one-line error; a trap fails the whole run.
final class ReferenceListMutationTests: XCTestCase {
    func testReferenceListsSurviveMutations() throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: library) }
        let store = ReferenceStore(library: library)
        let embedding = try Embedding(validating: (0..<Embedding.count).map { Float($0 % 7) - 3 })
        let reference = Reference(
            id: 0, photo: "/photos/a.jpg", face: 1, box: Box(x: 1, y: 2, width: 30, height: 40),
            landmarks: (0..<5).map { Point(Float($0), 2) }, quality: 0.8, embedding: embedding,
            thumbnail: "", added: "2024-05-01T10:00:00Z")
        _ = try store.add(reference, to: "Emma", thumbnailPNG: [], check: { _, _ in })
        let original = [UInt8](try Data(contentsOf: store.indexURL))
        var m = Mutator(state: 2)
        for i in 0..<1500 {
            try Data(m.mutate(original, within: 0..<original.count)).write(to: store.indexURL)
            do { _ = try store.list() } catch { assertOneLineError(error, "reference-list mutant \(i)") }
        }
    }
}
