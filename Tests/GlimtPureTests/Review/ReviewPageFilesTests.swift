import Foundation
import TestSupport
import XCTest

@testable import GlimtPure
@testable import Imaging

/// The review page's own files (Sources/GlimtPure/Review/Page), as the editor and the browser see
/// them: the palette written once and read by the sheets and the page alike, the page's text
/// readable on its backgrounds, and the year page's skeleton filled in without letting a name
/// become markup.
final class ReviewPageFilesTests: XCTestCase {
    static let page = Fixtures.repository.appendingPathComponent("Sources/GlimtPure/Review/Page")

    private func text(_ name: String) throws -> String { try String(contentsOf: Self.page.appendingPathComponent(name), encoding: .utf8) }

    /// palette.css's colours by name, in order, as the browser would read its custom properties.
    private func palette() throws -> [(name: String, rgb: RGB)] {
        let css = try text("palette.css")
        let declaration = try NSRegularExpression(pattern: #"--([a-z0-9-]+)\s*:\s*#([0-9a-fA-F]{6})\s*;"#)
        return declaration.matches(in: css, range: NSRange(css.startIndex..., in: css)).map { m in
            let hex = UInt32(css[Range(m.range(at: 2), in: css)!], radix: 16)!
            return (String(css[Range(m.range(at: 1), in: css)!]), RGB(UInt8(hex >> 16), UInt8(hex >> 8 & 0xff), UInt8(hex & 0xff)))
        }
    }

    private func colour(_ name: String) throws -> RGB {
        try XCTUnwrap(try palette().first { $0.name == name }?.rgb, "palette.css has --\(name)")
    }

    /// The sheets draw with the palette's colours, not a copy of them.
    func testTheSheetsAndThePageReadOnePalette() throws {
        let sheets: [(RGB, String)] = [
            (SheetStyle.background, "bg"), (SheetStyle.text, "text"), (SheetStyle.dimText, "sheet-dim"),
            (SheetStyle.emptyCell, "sheet-empty"), (SheetStyle.picked, "picked"), (SheetStyle.pinned, "pinned"),
            (SheetStyle.withoutPerson, "without"), (SheetStyle.excluded, "sheet-excluded"), (SheetStyle.noPick, "sheet-nopick"),
        ]
        for (rgb, name) in sheets { XCTAssertEqual(rgb, try colour(name), "SheetStyle's --\(name)") }
        let people = try palette().filter { $0.name.hasPrefix("person-") }
        XCTAssertEqual(people.map(\.name), (1...people.count).map { "person-\($0)" }, "the people's colours are numbered from 1, in order")
        XCTAssertGreaterThanOrEqual(people.count, 8)
        XCTAssertEqual(SheetStyle.people, people.map(\.rgb), "the calendar's people are the page's")
        // No second copy: SheetStyle names no colour of its own.
        let style = try String(contentsOf: Fixtures.repository.appendingPathComponent("Sources/GlimtPure/Sheets/SheetStyle.swift"), encoding: .utf8)
        XCTAssertNil(style.range(of: #"RGB\(\s*[0-9]"#, options: .regularExpression), "SheetStyle writes a colour of its own")
    }

    /// The page's script and style use the palette's colours by name; only palette.css writes
    /// one down, and every name they use is there.
    func testThePageWritesNoColourOfItsOwnOutsideThePalette() throws {
        let defined = Set(try palette().map(\.name))
        let hex = try NSRegularExpression(pattern: #"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b"#)
        let script = try text("review.js") + text("choices.js")
        XCTAssertEqual(hex.matches(in: script, range: NSRange(script.startIndex..., in: script)).count, 0, "a colour written into the page's scripts")
        let css = try text("review.css")
        XCTAssertNil(css.range(of: #"--[a-z0-9-]+\s*:"#, options: .regularExpression), "review.css defines a colour of the palette's")
        let used = try NSRegularExpression(pattern: #"var\(--([a-z0-9-]+)\)"#)
        for source in [css, script] {
            for m in used.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let name = String(source[Range(m.range(at: 1), in: source)!])
                XCTAssertTrue(defined.contains(name), "--\(name) is used and not in palette.css")
            }
        }
        XCTAssertTrue(script.contains("\"--person-\""), "the page's people marks read the palette's --person-N")
        // The skeleton loads the palette before the style that uses it.
        let html = try text("review.html")
        let palette = try XCTUnwrap(html.range(of: "href=\"assets/palette.css\""))
        let style = try XCTUnwrap(html.range(of: "href=\"assets/review.css\""))
        XCTAssertLessThan(palette.lowerBound, style.lowerBound)
    }

    /// WCAG 2 contrast, as review.css promises it: text AA (4.5:1) on every background it is
    /// set on, status borders and a control's outline 3:1. (The sheets' shades draw on pictures;
    /// the page keeps its own where they would fall short, e.g. excluded.)
    func testThePagesTextIsReadableOnItsBackgrounds() throws {
        func luminance(_ c: RGB) -> Double {
            func channel(_ v: UInt8) -> Double {
                let s = Double(v) / 255
                return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
        }
        func contrast(_ a: RGB, _ b: RGB) -> Double {
            let (x, y) = (luminance(a), luminance(b))
            return (max(x, y) + 0.05) / (min(x, y) + 0.05)
        }
        for fg in ["text", "dim", "accent"] {
            for bg in ["bg", "panel", "panel-2"] {
                XCTAssertGreaterThanOrEqual(contrast(try colour(fg), try colour(bg)), 4.5, "--\(fg) on --\(bg)")
            }
        }
        // Badges and tags: black text on a status colour, which is also a border on a panel.
        for status in ["picked", "pinned", "without", "excluded", "nopick", "changed"] {
            XCTAssertGreaterThanOrEqual(contrast(.black, try colour(status)), 4.5, "black on --\(status)")
            for bg in ["bg", "panel"] {
                XCTAssertGreaterThanOrEqual(contrast(try colour(status), try colour(bg)), 3, "--\(status) border on --\(bg)")
            }
        }
        XCTAssertGreaterThanOrEqual(contrast(try colour("edge"), try colour("bg")), 3, "a control's outline")
        XCTAssertGreaterThanOrEqual(contrast(try colour("focus"), try colour("bg")), 3, "the focus ring")
    }

    func testTheSkeletonIsFilledAndANameStaysText() throws {
        let skeleton = try ReviewPage(skeleton: Array(try text("review.html").utf8))
        let html = skeleton.html(year: 2024, person: "<img src=x onerror=alert(1)> \"Bo\" & {{year}}")
        XCTAssertTrue(
            html.contains("<title>glimt-pure review: 2024 (&lt;img src=x onerror=alert(1)&gt; &quot;Bo&quot; &amp; {{year}})</title>"), html)
        XCTAssertTrue(html.contains("<script src=\"data/2024.js\"></script>"), html)
        XCTAssertFalse(html.contains("<img"), "the name is text")
        XCTAssertEqual(html.components(separatedBy: "2024").count - 1, 2, "the year in the title and the data's name, and nowhere else")
        XCTAssertTrue(skeleton.html(year: 2023, person: nil).contains("<title>glimt-pure review: 2023</title>"))
        // A skeleton that leaves no year would load no year's data.
        XCTAssertThrowsError(try ReviewPage(skeleton: Array("<title>{{whose}}</title>".utf8))) {
            XCTAssertTrue("\($0)".contains("{{year}}"), "\($0)")
        }
        XCTAssertThrowsError(try ReviewPage(skeleton: Array("{{year}}{{whose}}{{when}}".utf8))) {
            XCTAssertTrue("\($0)".contains("{{when}}"), "\($0)")
        }
    }
}
