import Analysis
import Foundation
import GlimtPure

/// `glimt-bench look [--ref PHOTO]... CLIP...`: what the library's look at long videos' keyframes
/// costs in exactness. The clips are scanned twice by the real binary, with the look (the
/// default) and `--full-pass`; for no one and for every reference photo (each one person) it
/// reports each video's judgement from both stores: found or not, the second chosen, and how the
/// full store scores the look's second against its own best.
enum LookBench {
    static func run(_ clips: [String], references: [String]) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-look-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let looked = root.appendingPathComponent("looked"), full = root.appendingPathComponent("full")
        let a = try FollowBench.scan(clips, into: looked, extra: []), b = try FollowBench.scan(clips, into: full, extra: ["--full-pass"])
        let lookStore = try LibraryStore(library: looked, creating: false), fullStore = try LibraryStore(library: full, creating: false)
        let twins = Dictionary(uniqueKeysWithValues: try fullStore.allVideos().map { ($0.contentKey, $0) })
        var pairs: [(ObservedVideo, ObservedVideo)] = []
        var frames = (looked: 0, full: 0), seconds = (sampled: 0.0, all: 0.0), lookedAt = 0
        for v in try lookStore.allVideos() {
            guard let e = twins[v.contentKey] else { throw GlimtError("\(v.path) is in one store only") }
            pairs.append((v, e))
            frames.looked += v.frames.count
            frames.full += e.frames.count
            if let s = v.stretches {
                lookedAt += 1
                seconds.sampled += s.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
                seconds.all += v.duration
            }
        }
        print(String(format: "scan with the look: %.1f s wall, %.1f s CPU, %d frames, %d faces embedded", a.wall, a.cpu, frames.looked, a.embedded))
        print(
            String(
                format: "scan --full-pass:   %.1f s wall, %.1f s CPU, %d frames, %d faces embedded (%.2fx the CPU of the look)",
                b.wall, b.cpu, frames.full, b.embedded, b.cpu / max(a.cpu, 1e-9)))
        print(
            String(
                format: "%d of %d videos looked at by keyframes first; their stretches %.1f of %.1f s", lookedAt, pairs.count, seconds.sampled,
                seconds.all))
        let t = try Verdicts.compare(pairs, references: references, includeNoOne: true, otherStore: "the full store")
        print(
            String(
                format: "in all: %d of %d video judgements the same; found differs in %d; the look's second at most %.3f below the full store's best",
                t.same, t.compared, t.foundDiffers, t.worstLoss))
    }
}
