import Foundation
import XCTest

/// `glimt-pure embed`: JSON embeddings, one-line errors for bad files.
final class EmbedCommandTests: CLITestCase {
    func testEmbedPrintsTheSFaceEmbeddingAsJSON() throws {
        let r = try glimt("embed", fixture("sface/obama.png"))
        XCTAssertEqual(r.status, 0, r.err)
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as! [String: Any]
        let got = (json["embedding"] as! [NSNumber]).map(\.doubleValue)
        XCTAssertEqual(got.count, 128)
        // Decoded, so a change to the fixture's schema fails this test rather than the test process.
        struct GoldenEntry: Decodable { let file: String; let embedding: [Double] }
        let entries = try JSONDecoder().decode([GoldenEntry].self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("sface/golden.json")))
        let want = try XCTUnwrap(entries.first { $0.file == "obama.png" }, "sface/golden.json has no obama.png").embedding
        let dot = zip(got, want).reduce(0) { $0 + $1.0 * $1.1 }
        let norm = want.reduce(0) { $0 + $1 * $1 }.squareRoot()
        XCTAssertGreaterThan(dot / norm, 0.9999)
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
