import Foundation
import XCTest

/// `glimt-pure faces` and `glimt-pure reference`.
final class FacesCommandTests: CLITestCase {
    func testFacesAndReferencesEndToEnd() throws {
        let faces = try glimt("faces", "--json", fixture("yunet/two_people.png"))
        XCTAssertEqual(faces.status, 0, faces.err)
        let photo = try JSONSerialization.jsonObject(with: Data(faces.out.utf8)) as! [String: Any]
        XCTAssertEqual((photo["faces"] as! [Any]).count, 2)

        let refused = try glimt("reference", "add", fixture("yunet/two_people.png"))
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.err.contains("has 2 faces; choose one with --face N"), refused.err)
        XCTAssertTrue(refused.err.contains("face 2:"))
        XCTAssertEqual(try glimt("reference", "add", fixture("yunet/two_people.png"), "--face", "2").status, 0)
        let list = try glimt("reference", "list", "--json")
        let refs = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as! [[String: Any]]
        XCTAssertEqual(refs.count, 1)
        XCTAssertEqual(refs[0]["face"] as? Int, 2)
        let matched = try glimt("faces", "--match", fixture("yunet/two_people.png"))
        XCTAssertTrue(matched.out.contains("(same person)"), matched.out)
        XCTAssertEqual(try glimt("reference", "remove", "1").status, 0)
        XCTAssertEqual(try glimt("reference", "remove", "1").status, 1)
    }
}
