import Foundation
import TestSupport
import XCTest

@testable import Analysis
@testable import Faces
@testable import Imaging

/// A reference photo's embedding: the aligned face as it is and mirrored, averaged (a slightly
/// steadier reference for free).
final class ReferenceEmbeddingTests: XCTestCase {
    func testReferenceEmbeddingAveragesTheFaceAndItsMirror() throws {
        let pipeline = try FacePipeline.shared()
        let crop = try Fixtures.image("sface/obama.png")
        let a = pipeline.recognizer.embed(crop), b = pipeline.recognizer.embed(FaceAlignment.mirrored(crop))
        let ref = pipeline.referenceEmbedding(crop)
        XCTAssertEqual(ref.cosine(Embedding.average([a, b])), 1, accuracy: 1e-6)
        XCTAssertLessThan(a.cosine(b), 0.999, "the mirror image is a different input")
    }
}
