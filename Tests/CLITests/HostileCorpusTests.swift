import Foundation
import XCTest

/// The hostile corpus: a folder of everything people's folders hold that is not a clean video,
/// made by the test from the committed fixtures (nothing big is committed). One `analyze` and
/// one `film` over it: every bad file gets its documented one-line reason, every good one is
/// analysed, nothing crashes or hangs, and the film is made from what could be read.
final class HostileCorpusTests: CLITestCase {
    /// File name -> the reason printed for it (nil: analysed). The README's table.
    private static let expected: [String: String?] = [
        "empty.mp4": "empty file (0 bytes)",
        "random.mov": "not a photo or video (no known format)",
        "cut_10.mp4": "truncated or corrupt: moov atom not found",
        "cut_50.mp4": "truncated or corrupt: moov atom not found",
        "cut_99.mp4": "truncated or corrupt: error reading header",
        "no_moov.mp4": "truncated or corrupt: moov atom not found",
        "corrupt_middle.mp4": nil,
        "picture.mov": "is a still image (png), not a video",
        "sound.mp4": "has no video stream (sound only)",
        "hevc10.mp4": nil,
        "vfr.mp4": nil,
        "portrait.mp4": nil,
        "rotated_180.mp4": nil,
        "rotated_270.mp4": nil,
        "one_by_one.mp4": nil,
        "odd_4097x2161.mp4": nil,
        "with space.mp4": nil,
        "quote's \"x\".mp4": nil,
        "new\nline.mp4": "not a photo or video (no known format)",
        "loop.mp4": "a symlink loop",
        "pipe.mov": "is a FIFO (named pipe), not a file",
        "playlist.mp4": "refused: it is a playlist or reference file (hls) that points at other files or URLs",
        "playlist_url.m4v": "refused: it is a playlist or reference file (hls) that points at other files or URLs",
        "concat.mp4": "refused: it is a playlist or reference file (concat) that points at other files or URLs",
        "concat_url.mov": "refused: it is a playlist or reference file (concat) that points at other files or URLs",
    ]

    private func makeCorpus() throws -> URL {
        let folder = library.appendingPathComponent("corpus")
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        func put(_ name: String, _ bytes: Data) throws { try bytes.write(to: folder.appendingPathComponent(name)) }
        func copy(_ name: String, _ fixturePath: String) throws {
            try fm.copyItem(atPath: fixture(fixturePath), toPath: folder.appendingPathComponent(name).path)
        }

        let clip = try Data(contentsOf: URL(fileURLWithPath: fixture("media/h264_portrait.mp4")))
        try put("empty.mp4", Data())
        // Numerical Recipes' LCG: the same "random" bytes in every run.
        var state: UInt32 = 7
        func noise() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        }
        try put("random.mov", Data((0..<65536).map { _ in noise() }))
        for share in [10, 50, 99] { try put("cut_\(share).mp4", clip.prefix(clip.count * share / 100)) }
        // Every picture and no index (a recorder that died before writing it). FFmpeg finds an
        // index renamed to padding by itself, so the box is cut off, not renamed.
        let moov = try XCTUnwrap(Self.topLevelBox("moov", in: [UInt8](clip)))
        try put("no_moov.mp4", clip.prefix(moov))
        // 2 KB of noise in the middle of the pictures: decoded around, concealed.
        var damaged = [UInt8](clip)
        let mdat = try XCTUnwrap(Self.topLevelBox("mdat", in: damaged))
        for k in 0..<2048 { damaged[mdat + (moov - mdat) / 2 + k] = noise() }
        try put("corrupt_middle.mp4", Data(damaged))
        try copy("picture.mov", "yunet/obama.png")
        try copy("sound.mp4", "media/audio_only.m4a")
        for (name, path) in [
            ("hevc10.mp4", "media/hevc10_hlg.mp4"), ("vfr.mp4", "media/vfr_h264.mp4"), ("portrait.mp4", "media/h264_portrait.mp4"),
            ("rotated_180.mp4", "hostile/rotated_180.mp4"), ("rotated_270.mp4", "hostile/rotated_270.mp4"),
            ("one_by_one.mp4", "hostile/one_by_one.mp4"), ("odd_4097x2161.mp4", "hostile/odd_4097x2161.mp4"),
            ("with space.mp4", "analysis/two_people.mp4"), ("quote's \"x\".mp4", "analysis/two_people.mp4"),
        ] {
            try copy(name, path)
        }
        try put("new\nline.mp4", Data("junk".utf8))
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("loop.mp4").path, withDestinationPath: "loop.mp4")
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("pipe.mov").path, 0o644), 0)
        let local = fixture("analysis/two_people.mp4")
        func hls(_ entry: String) -> Data { Data("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(entry)\n#EXT-X-ENDLIST\n".utf8) }
        try put("playlist.mp4", hls(local))
        try put("playlist_url.m4v", hls("http://127.0.0.1:9/x.ts"))
        try put("concat.mp4", Data("ffconcat version 1.0\nfile \(local)\n".utf8))
        try put("concat_url.mov", Data("ffconcat version 1.0\nfile http://127.0.0.1:9/x.mp4\n".utf8))
        return folder
    }

    func testEveryHostileInputGetsItsDocumentedAnswer() throws {
        let folder = try makeCorpus()
        let started = Date()
        let run = try glimt("analyze", folder.path, "--no-refs", "--json", "--timezone", "UTC", "-q")
        let seconds = Date().timeIntervalSince(started)
        XCTAssertLessThan(seconds, 120, "the whole corpus within two minutes (1.4 s when measured)")
        XCTAssertEqual(run.status, 1, "some files failed: exit 1, never a signal\n\(run.err)")

        let result = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as! [String: Any]
        let analysed = Set((result["videos"] as! [[String: Any]]).map { URL(fileURLWithPath: $0["path"] as! String).lastPathComponent })
        // The two odd names are copies of one clip: the second is counted once, as the first.
        let copies = (result["duplicates"] as! [[String: Any]]).map { URL(fileURLWithPath: $0["path"] as! String).lastPathComponent }
        XCTAssertEqual(copies.count, 1, "\(copies)")
        XCTAssertEqual(analysed.union(copies), Set(Self.expected.filter { $0.value == nil }.keys))
        let lines = run.err.split(separator: "\n").map(String.init)
        for (name, reason) in Self.expected {
            guard let reason else { continue }
            let shown = folder.appendingPathComponent(name).path.replacingOccurrences(of: "\n", with: "\\n")
            let matching = lines.filter { $0.contains(shown + ": ") }
            XCTAssertEqual(matching.count, 1, "\(name): one line naming it\n\(run.err)")
            XCTAssertEqual(matching.first, "glimt-pure analyze: \(shown): \(reason)")
        }
        // The copy is named in its own line too.
        XCTAssertEqual(lines.filter { $0.hasSuffix("; counted once") }.count, copies.count, run.err)
        XCTAssertEqual(lines.count, Self.expected.values.filter { $0 != nil }.count + copies.count, "nothing else on stderr:\n\(run.err)")

        // The film over the same folder: made from what could be read, each bad file named once.
        let out = library.appendingPathComponent("film.mp4").path
        let film = try glimt("film", folder.path, "--no-refs", "--timezone", "UTC", "--out", out, "--size", "180x320", "--mute", "-q")
        XCTAssertEqual(film.status, 0, film.err)
        XCTAssertTrue(film.err.contains("the film was made without \(lines.count - copies.count) files"), film.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }

    /// `fixture`'s bytes with each `(old, new)` of equal length replaced once.
    private func edited(_ fixture: String, _ edits: [(String, String)]) throws -> Data {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: self.fixture(fixture))))
        for (old, new) in edits {
            let o = Array(old.utf8), n = Array(new.utf8)
            precondition(o.count == n.count, "a byte edit keeps the length")
            let at = try XCTUnwrap((0...(bytes.count - o.count)).first { bytes[$0..<($0 + o.count)].elementsEqual(o) }, "\(old) in \(fixture)")
            bytes.replaceSubrange(at..<(at + o.count), with: n)
        }
        return Data(bytes)
    }

    /// A QuickTime creation date that cannot be (2024-13-45) is passed over for the next source,
    /// and said in one line by every command that reads dates, with -q too: the video is shown
    /// and filmed on the day the next source gives. The scan keeps the line, so the days and the
    /// library's film say it again.
    func testAnImpossibleCreationDateIsPassedOverAndSaid() throws {
        let folder = library.appendingPathComponent("dated")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = folder.appendingPathComponent("party.mp4")
        // h264_portrait.mp4 holds the date twice as text; its creation time as text is renamed
        // away, so the container's own (2021-06-05T14:03:22Z) is the next source.
        try edited("media/h264_portrait.mp4", [("2021-06-05T16:03:22+0200", "2024-13-45T16:03:22+0200"), ("creation_time", "creation_tixx")])
            .write(to: video)
        let line = "\(video.path): its creation date '2024-13-45T16:03:22+0200' is not a real date; dated by its creation time instead"
        let film = ["--size", "180x320", "--mute", "-q", "-y"]
        let runs: [[String]] = [
            ["analyze", folder.path, "--no-refs", "--timezone", "UTC", "-q"],
            ["film", folder.path, "--no-refs", "--timezone", "UTC", "--out", library.appendingPathComponent("a.mp4").path] + film,
            ["scan", folder.path, "--timezone", "UTC", "-q"], ["days", "--no-refs", "-q"],
            ["film", "--no-refs", "--out", library.appendingPathComponent("b.mp4").path] + film,
        ]
        for args in runs {
            let run = try glimt(args)
            XCTAssertEqual(run.status, 0, "\(args[0]): \(run.err)")
            XCTAssertEqual(run.err.split(separator: "\n").filter { $0.contains(video.path) }, ["glimt-pure \(args[0]): \(line)"], "\(args[0])")
            if args[0] != "scan" { XCTAssertTrue(run.out.contains("2021-06-05"), "\(args[0]) has the video on its day: \(run.out)") }
        }
    }

    /// A video cut short (its index at the front, the rest of the file not there: a copy still
    /// under way) is analysed as far as its frames go, and said in one line: analyze and film
    /// exit 0, the scan keeps it with the line, and analyses it again once the copy is whole.
    func testAVideoCutShortIsAnalysedAsFarAsItGoesAndSaid() throws {
        let folder = library.appendingPathComponent("copying")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("long/long_day.mp4")))
        let video = folder.appendingPathComponent("long_day.mp4")
        try whole.prefix(whole.count / 4).write(to: video)
        func cutShort(_ run: Run, _ command: String, file: StaticString = #filePath, line: UInt = #line) {
            let lines = run.err.split(separator: "\n").filter { $0.contains(video.path) }
            XCTAssertEqual(lines.count, 1, "\(command): \(run.err)", file: file, line: line)
            let prefix = "glimt-pure \(command): \(video.path): cut short: its frames end at "
            let suffix = " s of the 29.0 s its container gives (still being copied?)"
            XCTAssertTrue(lines.first.map { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) } ?? false, "\(command): \(run.err)", file: file, line: line)
            let end = lines.first.flatMap { Double($0.dropFirst(prefix.count).dropLast(suffix.count)) } ?? 99
            XCTAssertLessThan(end, 10, "\(command): the frames of a quarter of the file", file: file, line: line)
        }
        let analyze = try glimt("analyze", video.path, "--no-refs", "--timezone", "UTC", "-q", "--json")
        XCTAssertEqual(analyze.status, 0, analyze.err)
        cutShort(analyze, "analyze")
        let result = try JSONSerialization.jsonObject(with: Data(analyze.out.utf8)) as! [String: Any]
        let analysed = try XCTUnwrap((result["videos"] as? [[String: Any]])?.first)
        XCTAssertLessThan(analysed["duration"] as! Double, 10, "as long as its frames go, not its container's 29 s")
        XCTAssertEqual((result["picks"] as? [Any])?.count, 1, "what is there is used")
        let film = try glimt(
            "film", video.path, "--no-refs", "--timezone", "UTC", "--out", library.appendingPathComponent("f.mp4").path,
            "--size", "180x320", "--mute", "-q")
        XCTAssertEqual(film.status, 0, film.err)
        cutShort(film, "film")
        let scan = try glimt("scan", folder.path, "--timezone", "UTC", "-q")
        XCTAssertEqual(scan.status, 0, scan.err)
        cutShort(scan, "scan")
        cutShort(try glimt("days", "--no-refs", "-q"), "days")
        // The copy finishes: the next scan sees a new size and analyses it whole, with no line.
        try whole.write(to: video)
        let again = try glimt("scan", folder.path, "--timezone", "UTC", "-q")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.hasPrefix("1 video found: 1 analysed"), again.out)
        XCTAssertEqual(again.err, "")
        XCTAssertEqual(try glimt("days", "--no-refs", "-q").err, "")
        // A video that ends before its sound is not cut short, nor is one cut only in its sound.
        let sound = try Data(contentsOf: URL(fileURLWithPath: fixture("media/video_shorter_than_audio.mp4")))
        let soundCut = folder.appendingPathComponent("sound_cut.mp4")
        try sound.prefix(sound.count * 9 / 10).write(to: soundCut)
        let quiet = try glimt("analyze", fixture("media/video_shorter_than_audio.mp4"), soundCut.path, "--no-refs", "-q")
        XCTAssertEqual(quiet.status, 0, quiet.err)
        XCTAssertEqual(quiet.err, "")
    }

    /// Offset of the first top-level ISO-BMFF box of `type`.
    static func topLevelBox(_ type: String, in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }
}
