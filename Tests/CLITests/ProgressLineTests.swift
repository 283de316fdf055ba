import Foundation
import XCTest

@testable import glimt_pure

/// Progress outside a terminal (a log, a pipe, the daily timer's journal) cannot be rewritten in
/// place: it is whole lines, the first of each step and then one every `ProgressLine.interval`.
final class ProgressLineTests: XCTestCase {
    func testOutsideATerminalProgressIsWholeLinesNowAndThen() {
        var written: [String] = []
        var clock = 0.0
        let line = ProgressLine(isTerminal: false, write: { written.append($0) }, now: { clock })
        for i in 1...50 {
            line.update("review: thumbnails and previews \(i)/50")
            clock += ProgressLine.interval / 20
        }
        XCTAssertEqual(
            written, ["review: thumbnails and previews 1/50\n", "review: thumbnails and previews 21/50\n", "review: thumbnails and previews 41/50\n"])
        written = []
        line.update("rendering day 1/3 2024-05-01    0%")
        line.update("rendering day 1/3 2024-05-01   50%")
        line.update("rendering day 2/3 2024-05-02    0%")
        line.clear()
        XCTAssertEqual(
            written, ["rendering day 1/3 2024-05-01    0%\n", "rendering day 2/3 2024-05-02    0%\n"],
            "each step's first line at once, nothing to clear")
    }

    func testOnATerminalTheLineIsRewrittenInPlace() {
        var written: [String] = []
        let line = ProgressLine(isTerminal: true, write: { written.append($0) }, now: { 0 })
        line.update("scanning 10%")
        line.update("scan 20%")
        line.clear()
        XCTAssertEqual(written, ["\rscanning 10%", "\rscan 20%    ", "\r        \r"])
    }
}
