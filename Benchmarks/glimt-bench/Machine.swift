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
    }

    /// One-thread sgemm GFLOPS of numpy's BLAS on this machine now (Benchmarks/sgemm.py), or why not.
    static func sgemm() -> (gflops: Double?, blas: String) {
        let single = ["OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "BLIS_NUM_THREADS": "1"]
        let reply = Python.run("sgemm.py", [], environment: single)
        guard let json = reply.json, let g = json["gflops"] as? Double else { return (nil, "skipped: \(reply.note ?? "no answer") (needs python3 with numpy)") }
        return (g, "numpy \(json["numpy"] as? String ?? "?") on \(json["blas"] as? String ?? "?"), 1 thread")
    }
}
