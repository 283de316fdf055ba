import Foundation
import TestSupport
import XCTest

@testable import AnalysisEngine
@testable import MediaIO

/// The samples decoded ahead of the measuring threads are bounded in bytes, not only in count.
final class FramesAheadTests: XCTestCase {
    func testTheQueueIsBoundedInBytes() throws {
        let small = try VideoReader(path: Fixtures.url("analysis/two_people.mp4").path).info
        XCTAssertEqual(VideoAnalyzer.framesAhead(workers: 2, info: small, longSide: 640), 4, "480x270 samples: one per thread and two spare")
        let large = try VideoReader(path: Fixtures.url("hostile/odd_4097x2161.mp4").path).info
        XCTAssertEqual(VideoAnalyzer.framesAhead(workers: 2, info: large, longSide: 640), 4)
        // --side 4096 on a 4097x2161 source: 26 MB a sample, two fit in 64 MB.
        XCTAssertEqual(VideoAnalyzer.framesAhead(workers: 2, info: large, longSide: 4096), 2)
        XCTAssertEqual(VideoAnalyzer.framesAhead(workers: 16, info: large, longSide: 4096), 2, "more threads do not queue more bytes")
    }
}
