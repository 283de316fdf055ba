import Foundation
import GlimtPure
import MediaIO

/// `glimt-bench library --years N [--keep DIR]`: a library of N generated years, written straight
/// into the store (nothing is scanned), then timed with the real CLI: a month's `days` and the
/// whole library's `days --json`, first (every day judged, then kept) and again (kept), after a
/// `pick` (one day judged again) and after a `reference add` (every day judged again). With
/// `--keep` the library stays in DIR, so anyone can time other commands on it.
///
/// What it holds, per year: about 3 videos a day (1 to 5), each 10 s sampled at 8 fps with three
/// faces a frame, one of them one of three people (Leo in most videos, Emma, Dad) and two
/// strangers; embeddings are each person's own direction plus noise, so their cosines to the
/// person's references (about 0.6) and to strangers' (about 0) are those of real faces. Each
/// person has two references; Leo has a pin and an excluded day each month.
enum DecadeBench {
    static let people = ["Leo", "Emma", "Dad"]
    static let firstYear = 2016

    static func run(years: Int, keep: String?) throws {
        let library =
            keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-decade-\(getpid())")
        defer { if keep == nil { try? FileManager.default.removeItem(at: library) } }
        if FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path) {
            throw GlimtError("already holds a library; give an empty or new folder", path: library.path)
        }
        let started = Date()
        let made = try generate(years: years, into: library)
        let written = Date().timeIntervalSince(started)
        let size = Double((try? FileStatus(LibraryStore(library: library, creating: false).databasePath).size) ?? 0) / 1e6
        print(
            String(
                format: "%d year%@: %d videos, %d faces, store %.0f MB (%.0f MB a year), written in %.0f s", years, years == 1 ? "" : "s",
                made.videos, made.faces, size, size / Double(years), written))
        let binary = Paths.built("glimt-pure").path
        let last = firstYear + years - 1
        let common = ["--library", library.path, "--person", "Leo"]
        func timed(_ what: String, _ arguments: [String]) throws {
            let r = try ChildProcess.run(binary, arguments)
            guard r.status == 0 else { throw GlimtError("\(what) failed (exit \(r.status)): \(r.errors.prefix(300))") }
            print("  " + what.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%6.2f s wall, peak %4.0f MB", r.seconds, r.peakMB))
        }
        let month = ["days", "--from", "\(last)-06-01", "--to", "\(last)-06-30"] + common
        let all = ["days", "--json"] + common
        let span = "all \(years) year\(years == 1 ? "" : "s")"
        try timed("days of one month, first", month)
        try timed("days --json of \(span), first", all)
        try timed("days --json of \(span), again", all)
        try timed("days of one month, again", month)
        try timed("pick (a pin)", ["pick", "\(last)-07-04", "--video", made.video(on: "\(last)-07-04"), "--at", "3", "--force"] + common)
        try timed("days --json of \(span) after the pin", all)
        try timed("reference add", ["reference", "add", Paths.inRepository("Tests/Fixtures/yunet/obama.png"), "--force", "-q"] + common)
        try timed("days --json of \(span) after it", all)
        // The judgements kept beside the store (see JudgementCache): Leo's days, twice over (before and after the reference).
        let kept = Double((try? FileStatus(library.appendingPathComponent(JudgementCache.fileName).path).size) ?? 0) / 1e6
        print(String(format: "  judgements kept: %.1f MB (%.1f MB a year, two scopes of one person)", kept, kept / Double(years)))
        if let keep { print("the library is kept in \(keep)") }
    }

    struct Made {
        var videos = 0
        var faces = 0
        /// The first video of each day.
        var first: [String: String] = [:]
        func video(on day: String) -> String { first[day] ?? "" }
    }

    /// Writes the store, the people with their references, and Leo's pins and excluded days.
    static func generate(years: Int, into library: URL) throws -> Made {
        var seed: UInt64 = 42
        func random() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24)
        }
        func direction() -> [Float] { (0..<128).map { _ in random() - 0.5 } }
        func near(_ base: [Float]) throws -> Embedding { try Embedding(validating: zip(base, direction()).map { $0 + 0.08 * $1 }) }
        let bases = people.map { _ in direction() }
        let store = try LibraryStore(library: library)
        var made = Made()
        var day = "\(firstYear)-01-01"
        for _ in 0..<(365 * years) {
            let count = 1 + Int(random() * 5)
            for v in 0..<count {
                // Leo in six videos of ten, Emma in three, Dad in one.
                let r = random()
                let who = r < 0.6 ? 0 : r < 0.9 ? 1 : 2
                let frames = try (0..<80).map { f in
                    ObservedFrame(
                        time: Double(f) / 8,
                        aesthetics: Aesthetics(value: random(), exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil),
                        sharpness: random(),
                        faces: try (0..<3).map { i in
                            ObservedFace(
                                box: Box(x: Float(300 * i), y: 200, width: 160, height: 160), score: 0.9, quality: random(),
                                embedding: i == 0 ? try near(bases[who]) : try Embedding(validating: direction()))
                        })
                }
                let path = "/videos/\(day.prefix(4))/VID_\(day.replacingOccurrences(of: "-", with: ""))_\(v).mp4"
                try store.save(
                    ObservedVideo(
                        contentKey: "\(day)-\(v)", path: path, size: Int64(1_000_000 + made.videos), modified: 0,
                        capture: CaptureDate(day: day, time: String(format: "%02d:00:00", 9 + v), instant: nil, source: .fileName),
                        duration: 10, width: 1920, height: 1080, rotation: 0, codec: "hevc", hdr: false, method: AnalysisOptions().method,
                        frames: frames))
                if v == 0 { made.first[day] = path }
                made.videos += 1
                made.faces += 240
            }
            day = CalendarDay.next(day)
        }
        let references = ReferenceStore(library: library)
        let thumbnail = try ImageEncoder.pngData(RGBImage(width: 8, height: 8, fill: (128, 128, 128)), comment: "glimt-bench")
        for (p, name) in people.enumerated() {
            for r in 0..<2 {
                let reference = Reference(
                    id: 0, photo: "/photos/\(name.lowercased())-\(r).jpg", face: 1, box: Box(x: 0, y: 0, width: 100, height: 100),
                    landmarks: (0..<5).map { Point(Float(20 * $0), 40) }, quality: 1, embedding: try near(bases[p]), thumbnail: "",
                    added: "")
                try references.add(reference, to: name, newPerson: r == 0, thumbnailPNG: thumbnail) { _, _ in }
            }
        }
        let leo = try references.person(named: "Leo")!
        let choices = try LibraryChoices(library: library, person: leo.id)
        for year in firstYear..<(firstYear + years) {
            for month in 1...12 {
                let pinned = String(format: "%d-%02d-15", year, month), excluded = String(format: "%d-%02d-20", year, month)
                try choices.pin(day: pinned, file: made.video(on: pinned), start: 2, force: true)
                _ = try choices.set(excluded, excluded: true)
            }
        }
        return made
    }
}
