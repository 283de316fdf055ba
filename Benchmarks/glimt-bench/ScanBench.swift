import Foundation
import GlimtPure

/// `glimt-bench scan [--ref PHOTO] [--runs N] CLIP...`: the library's scan of the clips into a
/// fresh library against `analyze --ref` of the same clips, each a fresh process, in turn
/// (scan, analyze, scan, ...) so that a machine whose speed drifts moves both alike. Reports the
/// median wall and CPU seconds of each, their ratio, and each one's CPU/wall (how well it keeps
/// the cores busy).
enum ScanBench {
    struct Result {
        var clips: Int
        var scanWall: Double, scanCPU: Double
        var analyzeWall: Double, analyzeCPU: Double
        var cores: Int
    }

    static func measure(_ clips: [String], reference: String, runs: Int, log: Bool) throws -> Result {
        let binary = Paths.built("glimt-pure").path
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-scan-\(getpid())")
        // The clips as one folder, as a person scans one; links, so nothing is copied.
        let folder = work.appendingPathComponent("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for (i, clip) in clips.enumerated() {
            let name = String(format: "%02d-", i) + URL(fileURLWithPath: clip).lastPathComponent
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(name).path,
                withDestinationPath: URL(fileURLWithPath: clip).standardizedFileURL.path)
        }
        var scans: [ChildProcess] = [], analyses: [ChildProcess] = []
        for run in 1...max(1, runs) {
            let library = work.appendingPathComponent("library-\(run)")
            let scan = try ChildProcess.run(binary, ["scan", folder.path, "--library", library.path, "-q"])
            guard scan.status == 0 else { throw GlimtError("scan failed: \(scan.lastError)") }
            let analysis = try ChildProcess.run(binary, ["analyze", folder.path, "--ref", reference, "-q"])
            guard analysis.status == 0 else { throw GlimtError("analyze failed: \(analysis.lastError)") }
            try? FileManager.default.removeItem(at: library)
            scans.append(scan)
            analyses.append(analysis)
            if log {
                print(
                    String(
                        format: "run %d: scan %.1f s wall, %.1f s CPU; analyze --ref %.1f s wall, %.1f s CPU",
                        run, scan.seconds, scan.cpuSeconds, analysis.seconds, analysis.cpuSeconds))
            }
        }
        // At least one run of each, so every median exists.
        func median(_ v: [Double]) -> Double { Timing.median(v)! }
        return Result(
            clips: clips.count, scanWall: median(scans.map(\.seconds)), scanCPU: median(scans.map(\.cpuSeconds)),
            analyzeWall: median(analyses.map(\.seconds)), analyzeCPU: median(analyses.map(\.cpuSeconds)),
            cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    static func records(_ r: Result) -> [StageRecord] {
        let busy = String(format: "CPU/wall: scan %.2f, analyze %.2f on %d cores", r.scanCPU / r.scanWall, r.analyzeCPU / r.analyzeWall, r.cores)
        return [
            StageRecord(
                stage: "scan, \(r.clips) clips, wall", oursMs: r.scanWall * 1000, peer: "analyze --ref", peerMs: r.analyzeWall * 1000, note: busy),
            StageRecord(stage: "scan, \(r.clips) clips, CPU", oursMs: r.scanCPU * 1000, peer: "analyze --ref", peerMs: r.analyzeCPU * 1000),
        ]
    }

    static func run(_ clips: [String], reference: String, runs: Int, json: Bool) throws {
        let rows = records(try measure(clips, reference: reference, runs: runs, log: !json))
        if json { StageTable.printJSON(rows, sgemm: nil) } else { StageTable.printTable(rows, sgemm: nil) }
    }
}
