import Foundation
import TensorLite

/// The machine and the build: the instruction sets the CPU has and the kernel variant compiled
/// in, printed before every benchmark (a figure means little without the code that made it).
enum Machine {
    static let instructionSets: [String] = {
        let lines = ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "").split(separator: "\n")
        let flags = Set(lines.first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        return ["avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx_vnni"].filter(flags.contains)
    }()

    static let cpu: String = {
        let lines = ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.first { $0.hasPrefix("model name") }.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    }()

    static var summary: String {
        "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(instructionSets.joined(separator: " "))"
    }

    static func print() {
        Swift.print("machine: \(summary)")
        Swift.print("kernels: \(KernelVariant.description)")
        Swift.print("peers: \(peerNote)")
    }

    /// The peers held to this build's instruction set, as they would run on a machine without
    /// AVX-512: an AVX2 build's ratios are then against AVX2 code on both sides. OpenCV and
    /// OpenBLAS have switches for it; onnxruntime has none. `GLIMT_PEERS_NATIVE=1` lets them use
    /// everything the CPU has.
    static var peerEnvironment: [String: String] {
        guard KernelVariant.compiled != .avx512, instructionSets.contains("avx512f"),
            ProcessInfo.processInfo.environment["GLIMT_PEERS_NATIVE"] != "1"
        else { return [:] }
        return ["OPENCV_CPU_DISABLE": "AVX512-SKX", "OPENBLAS_CORETYPE": "Haswell"]
    }

    static var peerNote: String {
        if peerEnvironment.isEmpty {
            return "OpenCV, OpenBLAS and onnxruntime use every instruction set the CPU has"
        }
        return
            "OpenCV DNN and OpenBLAS (sgemm) held to AVX2 like this build (GLIMT_PEERS_NATIVE=1 lifts that); onnxruntime has no such switch and runs its AVX-512 code"
    }

    /// One-thread sgemm GFLOPS of numpy's BLAS on this machine now (Benchmarks/sgemm.py), or why not.
    static func sgemm() -> (gflops: Double?, blas: String) {
        let single = ["OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "BLIS_NUM_THREADS": "1"]
        let reply = Python.run("sgemm.py", [], environment: single.merging(peerEnvironment) { a, _ in a })
        guard let json = reply.json, let g = json["gflops"] as? Double else {
            return (nil, "skipped: \(reply.note ?? "no answer") (needs python3 with numpy)")
        }
        return (g, "numpy \(json["numpy"] as? String ?? "?") on \(json["blas"] as? String ?? "?"), 1 thread")
    }
}
