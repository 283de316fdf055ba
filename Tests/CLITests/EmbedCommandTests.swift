import Foundation
import XCTest

/// `glimt-pure embed`: JSON embeddings, one-line errors for bad files.
final class EmbedCommandTests: CLITestCase {
    func testEmbedPrintsTheSFaceEmbeddingAsJSON() throws {
        let r = try glimt("embed", fixture("sface/obama.png"))
        XCTAssertEqual(r.status, 0, r.err)
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        XCTAssertEqual((json["embedding"] as! [NSNumber]).count, 128)
        // Every golden embedding, as onnxruntime gives it (decoded, so a change to the fixture's
        // schema fails this test rather than the test process).
        try GoldenModels.checkEmbeddings({ try glimt($0) }, "this build")
    }

    func testBadFilesGetOneLineErrorsAndTheOthersStillRun() throws {
        let text = library.appendingPathComponent("notes.png")
        try "not a picture".write(to: text, atomically: true, encoding: .utf8)
        let r = try glimt("embed", text.path, fixture("sface/biden.png"), library.appendingPathComponent("missing.jpg").path)
        XCTAssertEqual(r.status, 1)
        let lines = r.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.err)
        XCTAssertTrue(lines[0].contains(text.path))
        XCTAssertTrue(lines[1].contains("missing.jpg"))
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [[String: Any]]
        XCTAssertEqual(json.count, 1, "the good file is still embedded")
        let wrongSize = try glimt("embed", fixture("yunet/obama.png"))
        XCTAssertEqual(wrongSize.status, 1)
        XCTAssertTrue(wrongSize.err.contains("112x112"), wrongSize.err)
    }
}
