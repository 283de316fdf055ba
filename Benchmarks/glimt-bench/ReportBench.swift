import Faces
import Foundation
import GlimtPure
import MediaIO
import TensorLite

/// `glimt-bench report [--json] [--ref PHOTO] [--clips CLIP...]`: where the time goes, every stage
/// side by side with its peer in one run: the machine, one-thread sgemm as the yardstick, YuNet at
/// 320 and 640, alignment, SFace at batch 1/4/8 (vs onnxruntime and OpenCV DNN), then the whole
/// analysis of the clips and its stages (vs the Python + OpenCV script), the library's scan of
/// them against `analyze --ref`, and peak memory of
/// analysing and filming the 4K clips.
enum ReportBench {
    static func run(clips: [String], reference: String?, photo: String, repeats: Int, runs: Int, json: Bool) throws {
        func say(_ s: String) { if !json { print(s) } else { FileHandle.standardError.write((s + "\n").data(using: .utf8)!) } }
        say("machine: \(Machine.summary)\nkernels: \(KernelVariant.description)\npeers: \(Machine.peerNote)")
        let (sgemm, blas) = Machine.sgemm()
        say("sgemm:   " + (sgemm.map { String(format: "%.1f GFLOPS, ", $0) } ?? "") + blas)
        say(
            "ratio = ours / peer in time (under 1: ours is faster); GFLOPS are ours (peer GF: the peer's), "
                + "'of sgemm' is ours as a fraction of one-thread sgemm\n")
        var rows = [
            StageRecord(stage: "machine", note: "\(Machine.summary); \(KernelVariant.description); peers: \(Machine.peerNote)"),
            StageRecord(stage: "sgemm, 1 thread", peer: "numpy", measuredGflops: sgemm, note: blas),
        ]
        let source = try ImageDecoder.decode(path: photo)
        rows += try DetectBench.records(source, repeats: repeats, peers: true)
        rows.append(try EmbedBench.alignmentRecord(Resize.fitting(source, longSide: 640), repeats: repeats, peers: true))
        rows += try EmbedBench.records(repeats: repeats, faces: 8, peers: true)
        if !clips.isEmpty {
            rows += E2EBench.records(try E2EBench.measure(clips, reference: reference, runs: runs, log: !json))
            rows += ScanBench.records(
                try ScanBench.measure(clips, reference: reference ?? Paths.inRepository("Sample/reference.jpg"), runs: runs, log: !json))
            rows += try MemoryBench.records(clips.filter(MemoryBench.isUHD), reference: reference)
        }
        if json { StageTable.printJSON(rows, sgemm: sgemm) } else { StageTable.printTable(rows, sgemm: sgemm) }
    }
}

/// `glimt-bench memory [--ref PHOTO] CLIP...`: peak resident memory (wait4) of `glimt-pure analyze`
/// on each clip, of `glimt-pure film` made from it (analysis and rendering), and of rendering
/// alone (`film --picks` from the analysis' JSON), against the budget: 400 MB up to 4K, 1 GB
/// beyond (8K).
enum MemoryBench {
    static func budgetMB(_ path: String) -> Double {
        guard let info = try? VideoReader(path: path).info else { return 400 }
        return info.codedWidth * info.codedHeight > 4096 * 2176 ? 1000 : 400
    }

    static func isUHD(_ path: String) -> Bool {
        guard let info = try? VideoReader(path: path).info else { return false }
        return max(info.displayWidth, info.displayHeight) >= 3840
    }

    static func records(_ clips: [String], reference: String?) throws -> [StageRecord] {
        let binary = Paths.built("glimt-pure").path
        let refArgs = reference.map { ["--ref", $0] } ?? []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-film-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try clips.flatMap { clip -> [StageRecord] in
            let name = URL(fileURLWithPath: clip).lastPathComponent
            let film = folder.appendingPathComponent("film.mp4").path
            let picks = folder.appendingPathComponent("picks.json").path
            let jobs: [(String, [String])] = [
                ("analyze", ["analyze", clip, "--json", "-q"] + refArgs),
                // Days without the person are kept, so a film is rendered whatever the clip shows.
                ("film", ["film", clip, "--out", film, "-y", "-q", "--without-person", "include"] + refArgs),
                // The analysis' picks rendered again: the film's rendering alone.
                ("film --picks", ["film", "--picks", picks, "--out", film, "-y", "-q"]),
            ]
            let budget = budgetMB(clip)
            return try jobs.map { job, args in
                let r = try ChildProcess.run(binary, args)
                if job == "analyze" {
                    // A clip without the person has no pick: the picks of a look without references
                    // (not measured) still give the render something to cut.
                    let found = (try? JSONSerialization.jsonObject(with: r.output) as? [String: Any])?["picks"] as? [Any]
                    let output =
                        found?.isEmpty == false ? r.output : try ChildProcess.run(binary, ["analyze", clip, "--json", "-q", "--no-refs"]).output
                    try output.write(to: URL(fileURLWithPath: picks))
                }
                let verdict = r.status != 0 ? "FAILED (\(r.lastError))" : (r.peakMB < budget ? "under" : "OVER") + " the \(Int(budget)) MB budget"
                return StageRecord(stage: "peak RSS, \(job) \(name)", oursMs: r.seconds * 1000, peakMB: r.peakMB, note: verdict)
            }
        }
    }

    static func run(_ clips: [String], reference: String?, json: Bool) throws {
        let rows = try records(clips, reference: reference)
        if json { StageTable.printJSON(rows, sgemm: nil) } else { StageTable.printTable(rows, sgemm: nil) }
    }
}
