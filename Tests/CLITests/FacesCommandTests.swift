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

    /// Every face OpenCV's FaceDetectorYN finds in the golden photos, found the same.
    func testFacesAreTheGoldenDetectorsFaces() throws {
        try GoldenModels.checkFaces({ try glimt($0) }, "this build")
    }

    /// An iPhone-style HEIC (HEVC tiles in a grid, irot, Exif orientation) as a reference: the
    /// same person as the same picture saved as PNG, found upright.
    func testHEICReference() throws {
        let heic = fixture("heif/grid_irot.heic")
        let faces = try glimt("faces", heic)
        XCTAssertEqual(faces.status, 0, faces.err)
        XCTAssertTrue(faces.out.hasPrefix("\(heic): 176x216, 1 face"), faces.out)
        let added = try glimt("reference", "add", heic)
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertTrue(added.out.contains("added reference 1 of child: face 1 of"), added.out)
        let matched = try glimt("faces", "--match", fixture("heif/upright.png"))
        XCTAssertTrue(matched.out.contains("(same person)"), matched.out)
        // The same face again, from the PNG, is the reference already stored.
        let again = try glimt("reference", "add", fixture("heif/upright.png"))
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.contains("face 1 is the same face as reference 1 of child (cosine 1.00; face 1 of"), again.err)
    }
}
