import XCTest

@testable import Analysis
@testable import GlimtPure
@testable import Imaging

/// Each face on a contact sheet is drawn with its own mark; without marks, yellow numbers.
final class ContactSheetTests: XCTestCase {
    func testEachFaceIsOutlinedInItsMarksColour() {
        let image = RGBImage(width: 200, height: 100, fill: (10, 10, 10))
        let faces = [Box(x: 20, y: 30, width: 50, height: 50), Box(x: 120, y: 30, width: 50, height: 50)].map {
            DetectedFace(box: $0, landmarks: [], score: 1)
        }
        let sheet = ContactSheet.draw(image, faces: faces, marks: [.numbered(1), ContactSheet.Mark(color: .green, label: "2 ref 7")])
        func pixel(_ x: Int, _ y: Int) -> RGB {
            let i = (y * sheet.width + x) * 3
            return RGB(sheet.pixels[i], sheet.pixels[i + 1], sheet.pixels[i + 2])
        }
        // Left and right edges at mid-height, clear of the labels above the boxes.
        XCTAssertEqual(pixel(20, 55), .yellow)
        XCTAssertEqual(pixel(69, 55), .yellow)
        XCTAssertEqual(pixel(120, 55), .green)
        XCTAssertEqual(pixel(169, 55), .green)
        XCTAssertEqual(pixel(95, 55), RGB(10, 10, 10))
        // Each label sits above its box, in its mark's colour.
        func inks(_ xs: Range<Int>) -> Set<[UInt8]> {
            Set(
                xs.flatMap { x in
                    (0..<30).map { y in
                        let c = pixel(x, y); return [c.r, c.g, c.b]
                    }
                })
        }
        XCTAssertEqual(inks(20..<70), [[10, 10, 10], [0, 0, 0], [255, 214, 0]])
        XCTAssertEqual(inks(120..<170), [[10, 10, 10], [0, 0, 0], [0, 220, 80]])
        XCTAssertEqual(
            ContactSheet.draw(image, faces: faces).pixels,
            ContactSheet.draw(image, faces: faces, marks: [.numbered(1), .numbered(2)]).pixels)
    }
}
