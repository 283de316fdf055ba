import Foundation
import GlimtPure
import MediaIO

/// `glimt-bench library`: the library at scale. (1) A folder of N small generated clips scanned
/// by the real binary with one worker and with two: seconds per clip and peak resident memory of
/// the scanning process. (2) A year-sized store (365 days x 3 videos x 80 frames x 3 faces,
/// synthetic measurements) re-judged after a reference change, for one person alone and for one
/// of three and of five (each face matched against everyone): the time `days` and `film` need.
enum LibraryBench {
    /// `clips` 0: only the year-sized store.
    static func run(clips: Int, faces: [String]) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-library-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        guard clips > 0 else { return try rescoreYear(root.appendingPathComponent("year")) }
        let videos = root.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        let started = Date()
        let pictures = try faces.map { Resize.fitting(try ImageDecoder.decode(path: $0), longSide: 120) }
        for n in 0..<clips {
            let writer = try FilmWriter(
                path: videos.appendingPathComponent(String(format: "VID_2023%02d%02d_120000_%04d.mp4", 1 + n / 28 % 12, 1 + n % 28, n)).path,
                width: 320, height: 240, fps: 10, audio: false, quality: FilmQuality(preset: "ultrafast"))
            for k in 0..<15 {
                var frame = RGBImage(width: 320, height: 240, fill: (UInt8(n % 200), UInt8(n / 200 % 200), 120))
                frame.paste(pictures[n % pictures.count], x: 20 + 8 * k, y: 40 + n % 50)
                try writer.append(frame)
            }
            try writer.finish()
        }
        print(String(format: "%d clips of 1.5 s at 320x240 made in %.1f s", clips, Date().timeIntervalSince(started)))
        let binary = Paths.built("glimt-pure").path
        for workers in [1, 2] {
            let library = root.appendingPathComponent("library-\(workers)")
            let r = try ChildProcess.run(binary, ["scan", videos.path, "--library", library.path, "--jobs", "\(workers)", "-q"])
            let (seconds, peakMB, status) = (r.seconds, r.peakMB, r.status)
            print(
                String(
                    format: "scan, %d worker%@: %.1f s, %.1f ms per clip, peak RSS %.0f MB (exit %d)", workers, workers == 1 ? "" : "s",
                    seconds, seconds * 1000 / Double(clips), peakMB, status))
        }
        try rescoreYear(root.appendingPathComponent("year"))
    }

    static func rescoreYear(_ library: URL) throws {
        let store = try LibraryStore(library: library)
        var seed: UInt64 = 42
        func random() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24)
        }
        let person = try Embedding(validating: (0..<128).map { _ in random() - 0.5 })
        let started = Date()
        var day = "2023-01-01"
        var videos = 0
        for _ in 0..<365 {
            for v in 0..<3 {
                let frames = (0..<80).map { f in
                    ObservedFrame(
                        time: Double(f) / 8,
                        aesthetics: Aesthetics(value: random(), exposure: 1, contrast: 1, colourfulness: 1, cleanliness: 1, rejected: nil),
                        sharpness: random(),
                        faces: (0..<3).map { i in
                            // One face in three is near the person, the others strangers.
                            let noise = (0..<128).map { _ in random() - 0.5 }
                            let values = i == 0 ? zip(person.values, noise).map { $0 + 0.08 * $1 } : noise
                            return ObservedFace(
                                box: Box(x: Float(40 * i), y: 20, width: 60, height: 60), score: 0.9, quality: random(),
                                embedding: try? Embedding(validating: values))
                        })
                }
                try store.save(
                    ObservedVideo(
                        contentKey: "\(day)-\(v)", path: "/videos/\(day)-\(v).mp4", size: 1, modified: 0,
                        capture: CaptureDate(day: day, time: "12:00:00", instant: nil, source: .fileName), duration: 10,
                        width: 1920, height: 1080, rotation: 0, codec: "hevc", hdr: false, method: AnalysisOptions().method, frames: frames))
                videos += 1
            }
            day = CalendarDay.next(day)
        }
        let size = Int((try? FileStatus(store.databasePath).size) ?? 0)
        print(
            String(
                format: "year-sized store: %d videos, %d frames, %d faces, %.0f MB, written in %.1f s", videos, videos * 80, videos * 240,
                Double(size) / 1e6, Date().timeIntervalSince(started)))
        // The person, and up to four more people of five references each (random faces: they
        // claim nothing, but every face is matched against all of them, as in a family library).
        func reference(_ id: Int, _ e: Embedding) -> Reference {
            Reference(
                id: id, photo: "p\(id)", face: 1, box: Box(x: 0, y: 0, width: 1, height: 1), landmarks: [], quality: 1, embedding: e,
                thumbnail: "r\(id).png", added: "")
        }
        let everyone = try (0..<5).map { p in
            Person(
                id: p + 1, name: "person \(p + 1)",
                references: try (0..<5).map { r in
                    reference(p * 5 + r + 1, p == 0 && r == 0 ? person : try Embedding(validating: (0..<128).map { _ in random() - 0.5 }))
                })
        }
        for count in [0, 1, 3, 5] {
            let t = Date()
            var picked = 0
            let lookFor = count == 0 ? LookFor.noOne : LookFor(people: Array(everyone.prefix(count)), person: 0)
            try LibraryDays(library: library, rules: Judgement.Rules(), lookFor: lookFor).forEachDay { if $0.pick != nil { picked += 1 } }
            print(
                String(
                    format: "re-judging the year for one person of %d (5 references each): %.2f s (%d days picked), 0 frames decoded", count,
                    Date().timeIntervalSince(t), picked))
        }
    }
}
