import Analysis
import Faces
import Foundation
import GlimtPure
import MediaIO

/// `glimt-bench follow [--ref PHOTO]... CLIP...`: what following faces in the library costs in
/// exactness. The clips are scanned twice by the real binary, faces followed (the default) and
/// `--every-face`; both stores hold the same frames and faces, so each borrowed embedding can be
/// set beside the face's own. For every reference photo (each one person) it counts, over the
/// borrowed faces, how far the cosine moved and how many verdicts crossed the match and strong
/// lines, and whether each video's judgement (found or not, its best second) is the same.
enum FollowBench {
    struct Scan {
        var wall: Double
        var cpu: Double
        var embedded: Int
        var faces: Int
    }

    static func run(_ clips: [String], references: [String], json: Bool) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-follow-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let followed = root.appendingPathComponent("followed"), every = root.appendingPathComponent("every")
        let a = try scan(clips, into: followed, extra: ["--full-pass"]), b = try scan(clips, into: every, extra: ["--full-pass", "--every-face"])
        print(String(format: "scan, faces followed: %.1f s wall, %.1f s CPU, %d of %d faces embedded", a.wall, a.cpu, a.embedded, a.faces))
        print(
            String(
                format: "scan --every-face:    %.1f s wall, %.1f s CPU, %d of %d faces embedded (%.2fx the CPU of following)",
                b.wall, b.cpu, b.embedded, b.faces, b.cpu / max(a.cpu, 1e-9)))
        let pairs = try facePairs(
            followed: try LibraryStore(library: followed, creating: false), every: try LibraryStore(library: every, creating: false))
        let moved = pairs.borrowed.map { $0.borrowed.cosine($0.own) }.sorted()
        print(
            String(
                format: "%d borrowed faces: cosine of borrowed to own embedding min %.3f, 1st percentile %.3f, median %.3f",
                moved.count, moved.first ?? 1, percentile(moved, 0.01), percentile(moved, 0.5)))
        for (low, high) in [(Float(0), Float(0.85)), (0.85, 0.9), (0.9, 0.95), (0.95, 0.97), (0.97, 1.01)] {
            let inBucket = pairs.borrowed.filter { $0.likeness >= low && $0.likeness < high }.map { $0.borrowed.cosine($0.own) }.sorted()
            print(
                String(
                    format: "  likeness %.2f-%.2f: %4d faces, cosine min %.3f, 1st percentile %.3f, median %.3f", low, high, inBucket.count,
                    inBucket.first ?? 1, percentile(inBucket, 0.01), percentile(inBucket, 0.5)))
        }
        for back in 1...5 {
            let inBucket = pairs.borrowed.filter { $0.back == back }.map { $0.borrowed.cosine($0.own) }.sorted()
            print(
                String(
                    format: "  %d back: %4d faces, cosine min %.3f, 1st percentile %.3f, median %.3f", back, inBucket.count,
                    inBucket.first ?? 1, percentile(inBucket, 0.01), percentile(inBucket, 0.5)))
        }
        let verdicts = try Verdicts.compare(
            pairs.videos, references: references, borrowed: pairs.borrowed.map { ($0.borrowed, $0.own) }, otherStore: "the other")
        print("in all: \(verdicts.same) of \(verdicts.compared) video judgements the same")
    }

    static func scan(_ clips: [String], into library: URL, extra: [String]) throws -> Scan {
        let r = try ChildProcess.run(Paths.built("glimt-pure").path, ["scan"] + clips + ["--library", library.path, "-q"] + extra)
        guard r.status == 0 else { throw GlimtError("scan failed: \(r.lastError)") }
        let faces = try LibraryStore(library: library, creating: false).allVideos().flatMap { $0.frames.flatMap(\.faces) }
        return Scan(wall: r.seconds, cpu: r.cpuSeconds, embedded: faces.filter { !$0.borrowed && $0.embedding != nil }.count, faces: faces.count)
    }

    /// Each video of the followed store with its twin of the other, and every borrowed face's
    /// embedding beside its own.
    private static func facePairs(
        followed: LibraryStore, every: LibraryStore
    ) throws
        -> (videos: [(ObservedVideo, ObservedVideo)], borrowed: [(borrowed: Embedding, own: Embedding, likeness: Float, back: Int)])
    {
        let twins = Dictionary(uniqueKeysWithValues: try every.allVideos().map { ($0.contentKey, $0) })
        var videos: [(ObservedVideo, ObservedVideo)] = [], borrowed: [(Embedding, Embedding, Float, Int)] = []
        for v in try followed.allVideos() {
            guard let e = twins[v.contentKey], e.frames.count == v.frames.count else {
                throw GlimtError("the two scans sampled \(v.path) differently")
            }
            videos.append((v, e))
            for (f, g) in zip(v.frames, e.frames) {
                guard f.faces.count == g.faces.count else { throw GlimtError("the two scans found other faces in \(v.path) at \(f.time) s") }
                for (x, y) in zip(f.faces, g.faces) where x.borrowed {
                    if let b = x.embedding, let o = y.embedding, let from = x.borrowedFrom { borrowed.append((b, o, from.likeness, from.framesBack)) }
                }
            }
        }
        return (videos, borrowed)
    }

    private static func percentile(_ sorted: [Float], _ p: Double) -> Float {
        sorted.isEmpty ? 1 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

extension LibraryStore {
    /// Every stored video, day by day.
    func allVideos() throws -> [ObservedVideo] { try days().flatMap { try videos(onDay: $0) } }
}
