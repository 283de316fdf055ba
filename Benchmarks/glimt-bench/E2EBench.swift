import Foundation
import GlimtPure

/// `glimt-bench e2e [--ref PHOTO] [--runs N] CLIPS...`: the whole analysis of each clip, our built
/// `glimt-pure analyze --ref PHOTO --json` against Benchmarks/analyze_opencv.py (the same job in
/// Python + OpenCV), each a child process started cold (models loaded, reference embedded), runs
/// interleaved so both see the same machine. Median wall time, peak resident memory (wait4), and
/// whether the two pick the same second and agree on whether the person is there.
enum E2EBench {
    struct Pick {
        var start: Double?
        var found: Bool?
        var frames: Int
        /// Seconds per stage, summed over the video (decode, convert, detect, alignEmbed, score).
        var stages: [String: Double]
        /// Seconds before the first frame (models, reference), where the tool says.
        var setup: Double?
    }

    struct Clip {
        var path: String
        var ours: [ChildProcess] = []
        var peer: [ChildProcess] = []
        var ourPick: Pick?
        var peerPick: Pick?
        var problem: String?

        var agreement: String {
            guard let a = ourPick, let b = peerPick else { return "no comparison" }
            let startsAgree: Bool
            switch (a.start, b.start) {
            case let (x?, y?): startsAgree = abs(x - y) <= 1 / 8 + 1e-3  // within one sample
            case (nil, nil): startsAgree = true
            default: startsAgree = false
            }
            func s(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "none" }
            func f(_ v: Bool?) -> String { v.map { $0 ? "found" : "not found" } ?? "no ref" }
            let agree = startsAgree && a.found == b.found
            return (agree ? "picks agree" : "picks DIFFER")
                + ": \(s(a.start)) vs \(s(b.start)) s, \(f(a.found))/\(f(b.found)), \(a.frames)/\(b.frames) frames"
                + (b.setup.map { String(format: "; peer setup %.1f s", $0) } ?? "")
        }
    }

    static let peerName = "Python+OpenCV"

    static func run(_ clips: [String], reference: String?, runs: Int, json: Bool) throws {
        let results = try measure(clips, reference: reference, runs: runs, log: !json)
        let rows = records(results)
        if json { StageTable.printJSON(rows, sgemm: nil) } else { StageTable.printTable(rows, sgemm: nil) }
    }

    /// Runs every clip `runs` times with each tool, alternating.
    static func measure(_ clips: [String], reference: String?, runs: Int, log: Bool) throws -> [Clip] {
        let binary = Paths.built("glimt-pure").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw GlimtError("not built: swift build -c release --product glimt-pure", path: binary)
        }
        let refArgs = reference.map { ["--ref", $0] } ?? []
        var results = clips.map { Clip(path: $0) }
        for run in 0..<max(1, runs) {
            for i in results.indices {
                let clip = results[i].path
                if log { FileHandle.standardError.write("e2e run \(run + 1)/\(runs): \(clip)\n".data(using: .utf8)!) }
                let ours = try ChildProcess.run(binary, ["analyze", clip, "--json", "-q"] + refArgs)
                if ours.status == 0 {
                    results[i].ours.append(ours)
                    results[i].ourPick = results[i].ourPick ?? ourPick(ours.output)
                } else {
                    results[i].problem = "glimt-pure failed: \(ours.lastError)"
                }
                let reply = Python.run("analyze_opencv.py", refArgs + [clip], environment: Machine.peerEnvironment)
                if let run = reply.run, let json = reply.json {
                    results[i].peer.append(run)
                    results[i].peerPick = results[i].peerPick ?? peerPick(json)
                } else {
                    results[i].problem = [results[i].problem, "peer not run: \(reply.note ?? "")"].compactMap { $0 }.joined(separator: "; ")
                }
            }
        }
        return results
    }

    static func ourPick(_ data: Data) -> Pick? {
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let v = (json["videos"] as? [[String: Any]])?.first
        else { return nil }
        let t = v["times"] as? [String: Any] ?? [:]
        return Pick(
            start: (v["window"] as? [String: Any])?["start"] as? Double,
            found: (v["identity"] as? [String: Any])?["containsPerson"] as? Bool,
            frames: (v["frames"] as? [Any])?.count ?? 0,
            stages: t.compactMapValues { $0 as? Double }, setup: nil)
    }

    static func peerPick(_ json: [String: Any]) -> Pick? {
        guard let v = (json["videos"] as? [[String: Any]])?.first else { return nil }
        var stages = (v["stages"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Double }
        stages["alignEmbed"] = stages.removeValue(forKey: "align_embed")
        return Pick(
            start: v["window_start"] as? Double, found: v["found"] as? Bool, frames: v["frames"] as? Int ?? 0, stages: stages,
            setup: json["setup_seconds"] as? Double)
    }

    /// Per clip (wall ms, peak memory, agreement), the total, then per clip and analysed frame
    /// each stage (from both tools' own stage clocks, first run; ours decodes on its own thread,
    /// beside the other stages, so its stages add up to more than its wall time).
    static func records(_ clips: [Clip]) -> [StageRecord] {
        var rows: [StageRecord] = []
        var ourTotal = 0.0, peerTotal = 0.0, complete = true
        for c in clips {
            let ours = Timing.median(c.ours.map(\.seconds)).map { $0 * 1000 }, peer = Timing.median(c.peer.map(\.seconds)).map { $0 * 1000 }
            if let ours, let peer { ourTotal += ours; peerTotal += peer } else { complete = false }
            rows.append(
                StageRecord(
                    stage: "e2e " + URL(fileURLWithPath: c.path).lastPathComponent, oursMs: ours, peer: peerName, peerMs: peer,
                    peakMB: c.ours.map(\.peakMB).max(), peerPeakMB: c.peer.map(\.peakMB).max(),
                    note: [c.problem, c.agreement].compactMap { $0 }.joined(separator: "; ") + ", median of \(max(c.ours.count, c.peer.count))"))
        }
        rows.append(
            StageRecord(
                stage: "e2e total, \(clips.count) clip\(clips.count == 1 ? "" : "s")", oursMs: complete ? ourTotal : nil, peer: peerName,
                peerMs: complete ? peerTotal : nil,
                note: complete ? "sum of the clips' medians; each run loads models and the reference" : "some clips did not run"))
        // Per clip: a 4K HEVC clip and a 360p one spend their time in different places.
        let stages = [
            ("decode", "decode (theirs every picture)"), ("convert", "convert (to 640 RGB)"), ("detect", "detect in pipeline"),
            ("alignEmbed", "align+quality+embed"), ("score", "frame score"),
        ]
        for c in clips {
            guard let a = c.ourPick, let b = c.peerPick, a.frames > 0, b.frames > 0 else { continue }
            let name = URL(fileURLWithPath: c.path).lastPathComponent
            for (key, label) in stages {
                rows.append(
                    StageRecord(
                        stage: "  \(name): \(label)", oursMs: a.stages[key].map { $0 / Double(a.frames) * 1000 }, peer: peerName,
                        peerMs: b.stages[key].map { $0 / Double(b.frames) * 1000 }, note: "ms per analysed frame, first run"))
            }
        }
        return rows
    }
}
