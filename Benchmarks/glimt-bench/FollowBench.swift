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
        let a = try scan(clips, into: followed, extra: []), b = try scan(clips, into: every, extra: ["--every-face"])
        print(String(format: "scan, faces followed: %.1f s wall, %.1f s CPU, %d of %d faces embedded", a.wall, a.cpu, a.embedded, a.faces))
        print(String(format: "scan --every-face:    %.1f s wall, %.1f s CPU, %d of %d faces embedded (%.2fx the CPU of following)",
                     b.wall, b.cpu, b.embedded, b.faces, b.cpu / max(a.cpu, 1e-9)))
        let pairs = try facePairs(followed: try LibraryStore(library: followed, creating: false), every: try LibraryStore(library: every, creating: false))
        let moved = pairs.borrowed.map { $0.borrowed.cosine($0.own) }.sorted()
        print(String(format: "%d borrowed faces: cosine of borrowed to own embedding min %.3f, 1st percentile %.3f, median %.3f",
                     moved.count, moved.first ?? 1, percentile(moved, 0.01), percentile(moved, 0.5)))
        for (low, high) in [(Float(0), Float(0.85)), (0.85, 0.9), (0.9, 0.95), (0.95, 0.97), (0.97, 1.01)] {
            let inBucket = pairs.borrowed.filter { $0.likeness >= low && $0.likeness < high }.map { $0.borrowed.cosine($0.own) }.sorted()
            print(String(format: "  likeness %.2f-%.2f: %4d faces, cosine min %.3f, 1st percentile %.3f, median %.3f", low, high, inBucket.count,
                         inBucket.first ?? 1, percentile(inBucket, 0.01), percentile(inBucket, 0.5)))
        }
        for back in 1...5 {
            let inBucket = pairs.borrowed.filter { $0.back == back }.map { $0.borrowed.cosine($0.own) }.sorted()
            print(String(format: "  %d back: %4d faces, cosine min %.3f, 1st percentile %.3f, median %.3f", back, inBucket.count,
                         inBucket.first ?? 1, percentile(inBucket, 0.01), percentile(inBucket, 0.5)))
        }
        let pipeline = try FacePipeline.shared()
        let rules = Judgement.Rules(), thresholds = rules.thresholds
        var videosSame = 0, videosCompared = 0
        for photo in references {
            guard let face = pipeline.faces(in: try ImageDecoder.decode(path: photo), embed: false).first else {
                print("\(photo): no face, left out")
                continue
            }
            let r = pipeline.referenceEmbedding(face.crop)
            var worst: Float = 0, flips = (match: 0, strong: 0)
            for p in pairs.borrowed {
                let (own, borrowed) = (p.own.cosine(r), p.borrowed.cosine(r))
                worst = max(worst, abs(own - borrowed))
                if (own >= thresholds.match) != (borrowed >= thresholds.match) { flips.match += 1 }
                if (own >= thresholds.strong) != (borrowed >= thresholds.strong) { flips.strong += 1 }
            }
            let judge = Judgement(references: [r], rules: rules)
            var same = 0, differ: [String] = []
            for (f, e) in pairs.videos {
                let (x, y) = (judge.analysis(of: f), judge.analysis(of: e))
                let found = (x.identity?.containsPerson ?? false, y.identity?.containsPerson ?? false)
                if found.0 == found.1 && x.window?.start == y.window?.start {
                    same += 1
                } else {
                    // How the other store scores the second this one chose: how close a call it was.
                    let other = y.window.flatMap { w in BestWindow.at(start: w.start, times: x.frames.map(\.time), scores: x.frames.map { $0.score.total }) }
                    let mine = x.window.flatMap { w in BestWindow.at(start: w.start, times: y.frames.map(\.time), scores: y.frames.map { $0.score.total }) }
                    differ.append(URL(fileURLWithPath: f.path).lastPathComponent
                                  + String(format: " (found %@/%@, second %.2f/%.2f, scored %.3f/%.3f by the followed store, %.3f/%.3f by the other)",
                                           "\(found.0)", "\(found.1)", x.window?.start ?? -1, y.window?.start ?? -1,
                                           x.window?.meanScore ?? 0, other?.meanScore ?? 0, mine?.meanScore ?? 0, y.window?.meanScore ?? 0))
                }
            }
            videosSame += same
            videosCompared += pairs.videos.count
            print(String(format: "%@: largest cosine change %.3f; verdicts crossing %.2f: %d, crossing %.2f: %d; videos judged the same %d of %d%@",
                         URL(fileURLWithPath: photo).lastPathComponent, worst, thresholds.match, flips.match, thresholds.strong, flips.strong,
                         same, pairs.videos.count, differ.isEmpty ? "" : " (differ: " + differ.joined(separator: ", ") + ")"))
        }
        print("in all: \(videosSame) of \(videosCompared) video judgements the same")
    }

    private static func scan(_ clips: [String], into library: URL, extra: [String]) throws -> Scan {
        let r = try ChildProcess.run(Paths.built("glimt-pure").path, ["scan"] + clips + ["--library", library.path, "-q"] + extra)
        guard r.status == 0 else { throw GlimtError("scan failed: \(r.lastError)") }
        let faces = try LibraryStore(library: library, creating: false).allVideos().flatMap { $0.frames.flatMap(\.faces) }
        return Scan(wall: r.seconds, cpu: r.cpuSeconds, embedded: faces.filter { !$0.borrowed && $0.embedding != nil }.count, faces: faces.count)
    }

    /// Each video of the followed store with its twin of the other, and every borrowed face's
    /// embedding beside its own.
    private static func facePairs(followed: LibraryStore, every: LibraryStore) throws
        -> (videos: [(ObservedVideo, ObservedVideo)], borrowed: [(borrowed: Embedding, own: Embedding, likeness: Float, back: Int)]) {
        let twins = Dictionary(uniqueKeysWithValues: try every.allVideos().map { ($0.contentKey, $0) })
        var videos: [(ObservedVideo, ObservedVideo)] = [], borrowed: [(Embedding, Embedding, Float, Int)] = []
        for v in try followed.allVideos() {
            guard let e = twins[v.contentKey], e.frames.count == v.frames.count else { throw GlimtError("the two scans sampled \(v.path) differently") }
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
