import Foundation
import TensorLite

let usage = """
USAGE: glimt-bench <benchmark> [options]

BENCHMARKS:
  embed     SFace ms per face: ours vs onnxruntime and OpenCV DNN (same inputs, one thread)
  detect    YuNet ms per image at 320x320 and 640x640: ours vs onnxruntime and OpenCV DNN
  kernels   each TensorLite kernel alone at SFace's shapes (the stem at YuNet's too), in GFLOPS
  analyze   VIDEO... [--ref PHOTO]: ms per analysed frame by stage, for each decoder shortcut
  decode    [VIDEO...]: ms per sampled frame, for each decoder shortcut (best of 5 runs)
  encode    [VIDEO]: film encoding at 1080x1920, ms per frame and Mb/s for each x264 preset
  library   [--clips N]: scan N generated clips (default 1000) with 1 and 2 workers (time per clip,
            peak memory), then re-judge a year-sized store after a reference change

  decode and encode default to shared/videos/poetry_jam_2009.mp4 beside the repository.

OPTIONS:
  --repeats N   timed runs (median is reported; default 20)
  --faces N     inputs per run for embed (default 4)
  --layers      per-layer breakdown
  --photo P     picture for detect (default: the two_people fixture)
  --no-peers    skip onnxruntime/OpenCV (they need python3 with onnxruntime, opencv-python-headless)
"""

var args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ d: Int) -> Int {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return d }
    return v
}
/// The machine and the build, printed before every benchmark: the instruction sets the CPU has
/// and the kernel variant compiled in.
func printMachine() {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let lines = cpu.split(separator: "\n")
    let model = lines.first { $0.hasPrefix("model name") }.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown CPU"
    let flags = Set(lines.first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
    let sets = ["avx2", "fma", "avx512f", "avx512_vnni", "avx_vnni"].filter(flags.contains)
    print("machine: \(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(sets.joined(separator: " "))")
    print("kernels: \(KernelVariant.description)")
}

if ["embed", "detect", "kernels", "analyze"].contains(args.first ?? "") { printMachine() }

let sampleVideo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/videos/poetry_jam_2009.mp4").standardized.path
do {
    switch args.first {
    case "embed":
        try EmbedBench.run(repeats: option("--repeats", 20), faces: option("--faces", 4),
                           layers: args.contains("--layers"), peers: !args.contains("--no-peers"))
    case "detect":
        let photo = args.firstIndex(of: "--photo").map { args[$0 + 1] }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/GlimtPureTests/Fixtures/yunet/two_people.png").standardized.path
        try DetectBench.run(repeats: option("--repeats", 20), layers: args.contains("--layers"), peers: !args.contains("--no-peers"), photo: photo)
    case "kernels": KernelBench.run(repeats: option("--repeats", 20))
    case "analyze":
        let ref = args.firstIndex(of: "--ref").map { args[$0 + 1] }
        try AnalyzeBench.run(args.dropFirst().filter { !$0.hasPrefix("--") && $0 != ref }, reference: ref)
    case "decode":
        let videos = args.dropFirst().filter { !$0.hasPrefix("--") }
        try DecodeBench.run(videos.isEmpty ? [sampleVideo] : videos)
    case "encode": try EncodeBench.run(video: args.dropFirst().first { !$0.hasPrefix("--") } ?? sampleVideo)
    case "library":
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/GlimtPureTests/Fixtures/yunet").standardized
        try LibraryBench.run(clips: option("--clips", 1000), faces: ["obama.png", "biden.png", "obama2.png", "collins_nasa.png"].map { fixtures.appendingPathComponent($0).path })
    default: print(usage)
    }
} catch {
    FileHandle.standardError.write("glimt-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
