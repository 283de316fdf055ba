import Foundation
import GlimtPure

/// `glimt-bench floor [--ref PHOTO] [--runs N] CLIP...`: a full pass of `analyze --ref` over each
/// clip against FFmpeg decoding only the clip's reference pictures (`-skip_frame noref`, as
/// many threads as cores, to nothing): the least a full pass could cost, since every sample
/// needs the reference pictures before it. In turn (ours, FFmpeg, ours, ...), each a fresh
/// process; medians of wall and CPU seconds.
enum FloorBench {
    static func records(_ clips: [String], reference: String, runs: Int, log: Bool) throws -> [StageRecord] {
        let binary = Paths.built("glimt-pure").path
        let threads = String(ProcessInfo.processInfo.activeProcessorCount)
        var rows: [StageRecord] = []
        for clip in clips {
            var ours: [ChildProcess] = [], floor: [ChildProcess] = []
            for run in 1...max(1, runs) {
                let a = try ChildProcess.run(binary, ["analyze", clip, "--ref", reference, "--full-pass", "-q"])
                guard a.status == 0 else { throw GlimtError("analyze failed: \(a.lastError)") }
                let f = try ChildProcess.run(
                    "ffmpeg", ["-v", "error", "-nostdin", "-skip_frame", "noref", "-threads", threads, "-i", clip, "-an", "-f", "null", "-"])
                guard f.status == 0 else { throw GlimtError("ffmpeg failed: \(f.lastError)") }
                ours.append(a)
                floor.append(f)
                if log {
                    print(
                        String(
                            format: "run %d: analyze --full-pass %.2f s wall, %.2f s CPU; ffmpeg -skip_frame noref %.2f s wall, %.2f s CPU",
                            run, a.seconds, a.cpuSeconds, f.seconds, f.cpuSeconds))
                }
            }
            func median(_ v: [Double]) -> Double { Timing.median(v)! }
            let name = URL(fileURLWithPath: clip).lastPathComponent
            rows.append(
                StageRecord(
                    stage: "full pass \(name), wall", oursMs: median(ours.map(\.seconds)) * 1000, peer: "FFmpeg noref decode",
                    peerMs: median(floor.map(\.seconds)) * 1000, note: "median of \(ours.count)"))
            rows.append(
                StageRecord(
                    stage: "full pass \(name), CPU", oursMs: median(ours.map(\.cpuSeconds)) * 1000, peer: "FFmpeg noref decode",
                    peerMs: median(floor.map(\.cpuSeconds)) * 1000))
        }
        return rows
    }

    static func run(_ clips: [String], reference: String, runs: Int, json: Bool) throws {
        let rows = try records(clips, reference: reference, runs: runs, log: !json)
        if json { StageTable.printJSON(rows, sgemm: nil) } else { StageTable.printTable(rows, sgemm: nil) }
    }
}
