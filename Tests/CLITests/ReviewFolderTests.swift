import Foundation
import GlimtPure
import TestSupport
import XCTest

/// `review --out DIR` treats its folder like every other output: it writes and removes only files
/// it can prove it made there (its record of them, `.glimt-review`, names each with its content
/// key), never writes through a link, and names in one line each file of someone else's that it
/// leaves alone. Each case is one a hostile probe found destroying a user's file.
final class ReviewFolderTests: CLITestCase {
    /// The default library (XDG_DATA_HOME is the test's folder).
    private var store: URL { library.appendingPathComponent("glimt") }
    private var site: URL { library.appendingPathComponent("review") }
    private var videos: URL { library.appendingPathComponent("videos") }
    /// A copy of a fixture photo, the library's reference.
    private var photo: URL { library.appendingPathComponent("obama.png") }
    private var clips: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        clips = try GeneratedClips.write(to: videos.path)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture("yunet/obama.png")), to: photo)
        XCTAssertEqual(try glimt("reference", "add", photo.path, "--person", "Barack").status, 0)
        XCTAssertEqual(try glimt("scan", videos.path, "--timezone", "UTC", "-q").status, 0)
    }

    private func review(_ extra: String...) throws -> Run { try glimt(["review", "--out", site.path] + extra) }

    /// What a user file is: its bytes, or where a link points.
    private func snapshot(_ url: URL) throws -> Data {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) { return Data(("link:" + target).utf8) }
        return try Data(contentsOf: url)
    }

    /// The lines of a run's that name a file (the others say how far it got).
    private func named(_ run: Run) -> [Substring] {
        run.err.split(separator: "\n").filter { $0.hasPrefix("glimt-pure review: ") }
    }

    private func files(under folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDir) && !isDir.boolValue
        }.sorted()
    }

    /// D1: a folder of the user's, written into with -y, holds files in `previews/` and `thumbs/`
    /// whose names look like glimt's (three dash-separated parts): a WhatsApp video the library
    /// scanned and a WhatsApp picture. Both stay, named once each; the review is complete.
    func testFilesOfTheUsersInTheReviewsSubfoldersStay() throws {
        try FileManager.default.createDirectory(at: site.appendingPathComponent("previews"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: site.appendingPathComponent("thumbs"), withIntermediateDirectories: true)
        let whatsappVideo = site.appendingPathComponent("previews/VID-20240504-WA0001.mp4")
        let whatsappPhoto = site.appendingPathComponent("thumbs/IMG-20240504-WA0007.jpg")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: clips[0]), to: whatsappVideo)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture("yunet/biden.png")), to: whatsappPhoto)
        XCTAssertEqual(try glimt("scan", whatsappVideo.path, "--timezone", "UTC", "-q").status, 0, "the library scanned it")
        // And a name that is not UTF-8 (caf\xe9-1-1000.jpg), listed as the bytes it is.
        let latin1 = Array(site.appendingPathComponent("thumbs").path.utf8) + Array("/caf".utf8) + [0xE9] + Array("-1-1000.jpg".utf8)
        let fd = (latin1.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertEqual(write(fd, "mine", 4), 4)
        close(fd)
        func latin1Exists() -> Bool {
            var st = stat()
            return (latin1.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { stat($0.baseAddress!, &st) } == 0 && st.st_size == 4
        }
        let before = try [whatsappVideo, whatsappPhoto].map(snapshot)

        let run = try review("-y")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(try [whatsappVideo, whatsappPhoto].map(snapshot), before, "the user's files are as they were")
        XCTAssertTrue(latin1Exists())
        for name in ["previews/VID-20240504-WA0001.mp4", "thumbs/IMG-20240504-WA0007.jpg", "thumbs/caf\\xe9-1-1000.jpg"] {
            XCTAssertEqual(run.err.components(separatedBy: "\n").filter { $0.contains(name) }.count, 1, "named once: \(run.err)")
        }
        XCTAssertTrue(run.err.contains("was not written by glimt-pure review; left alone"), run.err)

        // Written again (a review now, no -y), and after a pin moved a second: still there.
        XCTAssertEqual(try glimt("exclude", clips[0]).status, 0)
        let again = try review()
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try [whatsappVideo, whatsappPhoto].map(snapshot), before, "the user's files are as they were")
        XCTAssertTrue(latin1Exists())
    }

    /// S1: in a review, `previews/` replaced by a link to another folder. Nothing is written
    /// there and nothing in it removed; the run says why in one line.
    func testALinkInPlaceOfASubfolderIsNeverWrittenThrough() throws {
        XCTAssertEqual(try review().status, 0)
        let elsewhere = library.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        // A video of the user's named as glimt names its previews.
        try FileManager.default.copyItem(at: URL(fileURLWithPath: clips[1]), to: elsewhere.appendingPathComponent("0123456789abcdef-1000-1000.mp4"))
        try FileManager.default.removeItem(at: site.appendingPathComponent("previews"))
        try FileManager.default.createSymbolicLink(at: site.appendingPathComponent("previews"), withDestinationURL: elsewhere)
        let before = try files(under: elsewhere).map { try snapshot(elsewhere.appendingPathComponent($0)) }

        let run = try review()
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertEqual(try files(under: elsewhere), ["0123456789abcdef-1000-1000.mp4"], "nothing written through the link")
        XCTAssertEqual(try files(under: elsewhere).map { try snapshot(elsewhere.appendingPathComponent($0)) }, before)
        XCTAssertEqual(named(run).count, 1, run.err)
        XCTAssertTrue(run.err.contains(site.appendingPathComponent("previews").path + ": is a symbolic link"), run.err)
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: site.appendingPathComponent("previews").path), elsewhere.path, "the link stays")
    }

    /// D2, D3: the review's own files replaced by links to what the run reads (a scanned video,
    /// the reference photo, the library's store). None is written through; each is named.
    func testLinksInPlaceOfTheReviewsFilesAreLeftAlone() throws {
        XCTAssertEqual(try review().status, 0)
        let sqlite = store.appendingPathComponent("library.sqlite")
        let links = [("index.html", URL(fileURLWithPath: clips[2])), ("data/2024.js", photo), ("2024.html", sqlite)]
        for (name, target) in links {
            try FileManager.default.removeItem(at: site.appendingPathComponent(name))
            try FileManager.default.createSymbolicLink(at: site.appendingPathComponent(name), withDestinationURL: target)
        }
        let video = try Data(contentsOf: URL(fileURLWithPath: clips[2])), picture = try Data(contentsOf: photo)
        let storeInode = try FileStatus(sqlite.path).inode, days = try glimt("days", "--json").out

        let run = try review()
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: clips[2])), video, "the scanned video")
        XCTAssertEqual(try Data(contentsOf: photo), picture, "the reference photo")
        XCTAssertEqual(try FileStatus(sqlite.path).inode, storeInode, "the store is the same file")
        XCTAssertEqual(Array(try Data(contentsOf: sqlite).prefix(16)), Array("SQLite format 3\0".utf8), "and still a store")
        XCTAssertEqual(try glimt("days", "--json").out, days, "the library reads as before")
        for (name, target) in links {
            XCTAssertEqual(
                try FileManager.default.destinationOfSymbolicLink(atPath: site.appendingPathComponent(name).path), target.path, "\(name) stays a link"
            )
            let lines = run.err.split(separator: "\n").filter { $0.contains(site.appendingPathComponent(name).path + ":") }
            XCTAssertEqual(lines.count, 1, "\(name) named once: \(run.err)")
            XCTAssertTrue(lines.first?.contains("is a symbolic link") == true && lines.first?.hasSuffix("left alone") == true, "\(lines)")
        }
        XCTAssertTrue(run.err.contains("which this run reads"), "says what the link leads to: \(run.err)")
    }

    /// A thumbnail emptied and a preview overwritten with garbage are not glimt's any more: they
    /// are not counted as reused, the page does not show them, and they are named.
    func testDamagedThumbnailsAndPreviewsAreNotReused() throws {
        let first = try review()
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("4 previews and 4 thumbnails made, 0 reused"), first.out)
        let thumb = try XCTUnwrap(try files(under: site.appendingPathComponent("thumbs")).first)
        let preview = try XCTUnwrap(try files(under: site.appendingPathComponent("previews")).last)
        try Data().write(to: site.appendingPathComponent("thumbs/\(thumb)"))
        let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: site.appendingPathComponent("previews/\(preview)"))

        let run = try review()
        XCTAssertTrue(run.out.contains("0 previews and 0 thumbnails made, 6 reused"), run.out)
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertTrue(run.err.contains("thumbs/\(thumb): has changed since glimt-pure review wrote it"), run.err)
        XCTAssertTrue(run.err.contains("previews/\(preview): has changed since glimt-pure review wrote it"), run.err)
        XCTAssertEqual(try Data(contentsOf: site.appendingPathComponent("previews/\(preview)")), garbage, "left alone")
        let data = try String(contentsOf: site.appendingPathComponent("data/2024.js"), encoding: .utf8)
        XCTAssertFalse(data.contains("thumbs/\(thumb)") || data.contains("previews/\(preview)"), "the page does not show them")

        // Removed by the person, they are made again.
        try FileManager.default.removeItem(at: site.appendingPathComponent("thumbs/\(thumb)"))
        try FileManager.default.removeItem(at: site.appendingPathComponent("previews/\(preview)"))
        let again = try review()
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.contains("1 previews and 1 thumbnails made, 6 reused"), again.out)
    }

    /// A person's name is text in the year page's skeleton, whatever it holds.
    func testANameIsTextInThePage() throws {
        let name = "<img src=x onerror=alert(1)>\"&"
        XCTAssertEqual(try glimt("reference", "add", fixture("yunet/biden.png"), "--person", name).status, 0)
        let run = try review("--person", name)
        XCTAssertEqual(run.status, 0, run.err)
        let html = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<title>glimt-pure review: 2024 (&lt;img src=x onerror=alert(1)&gt;&quot;&amp;)</title>"), html)
        XCTAssertFalse(html.contains("<img"), html)
    }

    /// Killed (SIGKILL) at moments through a run, over a folder holding the user's files and
    /// links to what the run reads: every one of them stays byte for byte, and the run after
    /// finishes and knows every file of its own (none named as someone else's).
    func testKillingAReviewLeavesEveryUserFileAsItWas() throws {
        XCTAssertEqual(try review().status, 0)
        XCTAssertEqual(try glimt("exclude", clips[1]).status, 0)  // seconds to make again, files to remove
        XCTAssertEqual(try glimt("exclude", clips[3]).status, 0)
        let userFiles = [
            site.appendingPathComponent("previews/VID-20240504-WA0001.mp4"), site.appendingPathComponent("notes.txt"),
            site.appendingPathComponent("thumbs/IMG-20240504-WA0007.jpg"),
        ]
        try FileManager.default.copyItem(at: URL(fileURLWithPath: clips[0]), to: userFiles[0])
        try "mine".write(to: userFiles[1], atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture("yunet/biden.png")), to: userFiles[2])
        try FileManager.default.removeItem(at: site.appendingPathComponent("index.html"))
        try FileManager.default.createSymbolicLink(at: site.appendingPathComponent("index.html"), withDestinationURL: URL(fileURLWithPath: clips[2]))
        let watched =
            userFiles + [site.appendingPathComponent("index.html"), photo, URL(fileURLWithPath: clips[2])] + clips.map { URL(fileURLWithPath: $0) }
        let before = try watched.map(snapshot)
        let days = try glimt("days", "--json").out

        // Its own pictures gone, so that the runs have all of them to make again.
        for sub in ["thumbs", "previews"] {
            for name in try files(under: site.appendingPathComponent(sub)) where !name.contains("WA000") {
                try FileManager.default.removeItem(at: site.appendingPathComponent(sub).appendingPathComponent(name))
            }
        }
        // Once the moment a preview is being made (its work in progress is there), then at moments.
        let p = try start(["review", "--out", site.path])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, p.isRunning,
            try !files(under: site.appendingPathComponent("previews")).contains(where: { $0.contains("glimt-review-tmp") })
        {
            usleep(1_000)
        }
        XCTAssertTrue(p.isRunning, "killed while making a preview")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(try watched.map(snapshot), before, "after SIGKILL while making a preview")
        for delay in [150_000, 400_000, 700_000, 1_000_000, 1_500_000] as [useconds_t] {
            let p = try start(["review", "--out", site.path])
            usleep(delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            XCTAssertEqual(try watched.map(snapshot), before, "after SIGKILL at \(delay) µs")
        }
        XCTAssertEqual(try glimt("days", "--json").out, days, "the library reads as before")
        let finished = try review()
        XCTAssertEqual(finished.status, 1, "index.html is a link: \(finished.err)")
        XCTAssertEqual(try watched.map(snapshot), before)
        XCTAssertEqual(
            named(finished).count, 3, "the two files of the user's in the review's folders and the link, nothing of its own: \(finished.err)")
        XCTAssertEqual(try files(under: site).filter { $0.contains("glimt-review-tmp") }, [], "no work in progress left")
    }

    /// A preview is glimt's own: a scan of the review folder names each one in a line and takes
    /// none of them for a video of the day.
    func testAScanOfTheReviewFolderTakesNoPreviewForAVideo() throws {
        XCTAssertEqual(try review().status, 0)
        let previews = try files(under: site.appendingPathComponent("previews"))
        XCTAssertFalse(previews.isEmpty)
        let scan = try glimt("scan", site.path, "--timezone", "UTC")
        XCTAssertEqual(scan.status, 0, scan.err)
        for p in previews {
            XCTAssertTrue(scan.err.contains("previews/\(p): a film made by glimt-pure"), "\(p) named as glimt's: \(scan.err)")
        }
        // Its thumbnails are JPEGs, taken for photos by name and skipped by glimt's mark.
        let thumbs = try files(under: site.appendingPathComponent("thumbs"))
        for t in thumbs {
            XCTAssertTrue(scan.err.contains("thumbs/\(t): a picture made by glimt-pure"), "\(t) named as glimt's: \(scan.err)")
        }
        XCTAssertTrue(scan.out.contains("0 analysed") && scan.out.contains("\(previews.count + thumbs.count) skipped"), scan.out)
    }
}
