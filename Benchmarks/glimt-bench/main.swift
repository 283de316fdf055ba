import Foundation

let usage = """
    USAGE: glimt-bench <benchmark> [options]

    BENCHMARKS:
      report    [--json] [--ref PHOTO] [--clips CLIP... | --no-clips]: every stage side by side with its
                peer in one run: machine, one-thread sgemm, YuNet 320/640, alignment, SFace batch
                1/4/8, the whole analysis of the clips and its stages, peak memory on 4K clips.
                Clips default to shared/videos/*.mp4 plus the 4K clip of tools/bench/make_bench_clips.sh
                when it has been made; PHOTO defaults to Sample/reference.jpg
      e2e       [--json] [--ref PHOTO] [--runs N] CLIP...: 'glimt-pure analyze' vs
                Benchmarks/analyze_opencv.py (Python + OpenCV) on each clip: time, peak memory, picks
      memory    [--json] [--ref PHOTO] CLIP...: peak memory of 'glimt-pure analyze' and 'film' per clip
      embed     SFace ms per face at batch 1/4/8: ours vs onnxruntime and OpenCV DNN (one thread)
      detect    YuNet ms per image at 320x320 and 640x640: ours vs onnxruntime and OpenCV DNN
      kernels   [--yunet]: each TensorLite kernel alone at SFace's shapes (the stem at YuNet's too), in GFLOPS;
                --yunet: only YuNet's layer shapes
      eyes      [--photo P] [--csv OUT VIDEO...]: ms per face to tell open eyes (iris landmark model), one
                thread; with --csv, every face of every frame's openness (for tools/eyes/agreement.py)
      analyze   VIDEO... [--ref PHOTO]: ms per analysed frame by stage, for each decoder shortcut
      decode    [VIDEO...]: ms per sampled frame, for each decoder shortcut (best of 5 runs)
      encode    [VIDEO]: film encoding at 1080x1920, ms per frame and Mb/s for each x264 preset
      scan      [--json] [--ref PHOTO] [--runs N] CLIP...: 'glimt-pure scan' of the clips into a fresh
                library vs 'analyze --ref' of the same clips, in turn: wall, CPU, CPU/wall
      floor     [--json] [--ref PHOTO] [--runs N] CLIP...: 'glimt-pure analyze --full-pass' of each clip vs
                FFmpeg decoding only its reference pictures (-skip_frame noref), the floor of a full
                pass, in turn: wall and CPU
      follow    [--ref PHOTO]... CLIP...: scan the clips with faces followed and with --every-face;
                how far borrowed embeddings are from the faces' own, and for each PHOTO how many
                verdicts and video judgements differ
      look      [--ref PHOTO]... CLIP...: scan the clips with the look at long videos' keyframes and with
                --full-pass; for no one and each PHOTO how many video judgements differ, and by how much
      library   [--clips N]: scan N generated clips (default 1000) with 1 and 2 workers (time per clip,
                peak memory), then re-judge a year-sized store after a reference change
      library   --years N [--keep DIR]: a generated library of N years (people, pins, excluded days),
                timed with the CLI: a month's days, all days --json, a pick, a reference add; DIR keeps it

      decode and encode default to shared/videos/poetry_jam_2009.mp4 beside the repository.
      report, e2e, memory, scan, floor, follow, look and library run the glimt-pure built beside glimt-bench
      (swift build -c release --product glimt-pure).

    OPTIONS:
      --repeats N   timed runs (median is reported; default 20)
      --runs N      e2e, scan, floor: runs of each tool per clip, interleaved (median is reported; default 3)
      --faces N     inputs per run for embed (default 8)
      --layers      per-layer breakdown
      --photo P     picture for detect and report (default: the two_people fixture)
      --no-peers    skip onnxruntime/OpenCV (they need python3 with onnxruntime, opencv-python-headless)
    """

var args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ d: Int) -> Int {
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return d }
    return v
}
func value(_ name: String) -> String? {
    args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
}
/// Positional arguments after the benchmark's name: not options, not option values.
func positionals(valued: [String] = ["--ref", "--repeats", "--runs", "--faces", "--photo", "--clips", "--csv"]) -> [String] {
    var out: [String] = []
    var skip = false
    for a in args.dropFirst() {
        if skip { skip = false; continue }
        if valued.contains(a) { skip = true; continue }
        if !a.hasPrefix("--") { out.append(a) }
    }
    return out
}

if ["embed", "detect", "kernels", "analyze", "eyes"].contains(args.first ?? "") { Machine.print() }

let sampleVideo = Paths.shared("videos/poetry_jam_2009.mp4")
let twoPeople = Paths.inRepository("Tests/Fixtures/yunet/two_people.png")
let referencePhoto = value("--ref") ?? Paths.inRepository("Sample/reference.jpg")
/// The shared clips and, when tools/bench/make_bench_clips.sh has made it, the 4K one.
func defaultClips() -> [String] {
    let folder = Paths.shared("videos")
    let shared = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".mp4") }.sorted().map {
        folder + "/" + $0
    }
    let uhd = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/glimt-bench-clips/hevc10_4k30.mov"
    return shared + (FileManager.default.fileExists(atPath: uhd) ? [uhd] : [])
}
do {
    let json = args.contains("--json")
    switch args.first {
    case "report":
        // --clips takes every positional after it; --no-clips leaves the end-to-end part out.
        let clips =
            args.contains("--no-clips")
            ? [] : (args.contains("--clips") ? positionals(valued: ["--ref", "--repeats", "--runs", "--photo"]) : defaultClips())
        try ReportBench.run(
            clips: clips, reference: referencePhoto, photo: value("--photo") ?? twoPeople,
            repeats: option("--repeats", 20), runs: option("--runs", 3), json: json)
    case "e2e":
        let clips = positionals()
        try E2EBench.run(clips.isEmpty ? defaultClips() : clips, reference: referencePhoto, runs: option("--runs", 3), json: json)
    case "memory":
        let clips = positionals()
        try MemoryBench.run(clips.isEmpty ? defaultClips().filter(MemoryBench.isUHD) : clips, reference: referencePhoto, json: json)
    case "embed":
        try EmbedBench.run(
            repeats: option("--repeats", 20), faces: option("--faces", 8),
            layers: args.contains("--layers"), peers: !args.contains("--no-peers"))
    case "detect":
        try DetectBench.run(
            repeats: option("--repeats", 20), layers: args.contains("--layers"), peers: !args.contains("--no-peers"),
            photo: value("--photo") ?? twoPeople)
    case "eyes":
        try EyesBench.run(
            repeats: option("--repeats", 20), photo: value("--photo") ?? twoPeople, csv: value("--csv"), videos: positionals())
    case "kernels": KernelBench.run(repeats: option("--repeats", 20), yunetOnly: args.contains("--yunet"))
    case "analyze":
        try AnalyzeBench.run(positionals(), reference: value("--ref"))
    case "decode":
        let videos = positionals()
        try DecodeBench.run(videos.isEmpty ? [sampleVideo] : videos)
    case "encode": try EncodeBench.run(video: positionals().first ?? sampleVideo)
    case "scan":
        let clips = positionals()
        try ScanBench.run(clips.isEmpty ? defaultClips() : clips, reference: referencePhoto, runs: option("--runs", 3), json: json)
    case "floor":
        try FloorBench.run(positionals(), reference: referencePhoto, runs: option("--runs", 3), json: json)
    case "follow":
        try FollowBench.run(
            positionals(valued: ["--ref"]), references: args.indices.filter { args[$0] == "--ref" && $0 + 1 < args.count }.map { args[$0 + 1] },
            json: json)
    case "look":
        try LookBench.run(
            positionals(valued: ["--ref"]), references: args.indices.filter { args[$0] == "--ref" && $0 + 1 < args.count }.map { args[$0 + 1] })
    case "library" where args.contains("--years"):
        try DecadeBench.run(years: option("--years", 1), keep: value("--keep"))
    case "library":
        let fixtures = Paths.inRepository("Tests/Fixtures/yunet")
        try LibraryBench.run(
            clips: option("--clips", 1000), faces: ["obama.png", "biden.png", "obama2.png", "collins_nasa.png"].map { fixtures + "/" + $0 })
    default: print(usage)
    }
} catch {
    FileHandle.standardError.write("glimt-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
