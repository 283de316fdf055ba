/// Which kernels this module compiled, and what a CPU needs to run them. Kernels pick their
/// register tiles at compile time, and the compiler may use every instruction of the target CPU
/// it was given (Package.swift's GLIMT_TARGET_CPU), so the module is one of four variants: AVX-512
/// tiles and int8 kernels for x86-64-v4 with VNNI, AVX2 tiles with int8 kernels for x86-64-v3
/// with AVX-VNNI (Alder Lake and later Intel cores), AVX2 tiles with int8 kernels on `vpmaddwd`
/// for x86-64-v3, or portable x86-64 code (the AVX2 float tiles, in SSE2). The Debian package's
/// binary holds all four, this module compiled four times, and runs the fastest the CPU can (see
/// docs/packaging.md).
public enum KernelVariant: String, CaseIterable, Sendable {
    case avx512, avx2vnni, avx2, portable

    /// Fastest first: the order a choice is made in.
    public static let fastestFirst: [KernelVariant] = [.avx512, .avx2vnni, .avx2, .portable]

    #if GLIMT_AVX512
    public static let compiled = KernelVariant.avx512
    #elseif GLIMT_AVXVNNI
    public static let compiled = KernelVariant.avx2vnni
    #elseif GLIMT_AVX2
    public static let compiled = KernelVariant.avx2
    #else
    public static let compiled = KernelVariant.portable
    #endif

    /// As people write it: `AVX-512`, `AVX2 with AVX-VNNI`, `AVX2`, `portable`.
    public var name: String {
        switch self {
        case .avx512: "AVX-512"
        case .avx2vnni: "AVX2 with AVX-VNNI"
        case .avx2: "AVX2"
        case .portable: "portable"
        }
    }

    /// The x86-64 level the variant is compiled for.
    public var level: String {
        switch self {
        case .avx512: "x86-64-v4 with VNNI"
        case .avx2vnni: "x86-64-v3 with AVX-VNNI"
        case .avx2: "x86-64-v3"
        case .portable: "x86-64"
        }
    }

    /// The CPU flags (as Linux names them in /proc/cpuinfo) of the variant's whole x86-64 level,
    /// not only its vector ones: the compiler may emit any instruction of the level (a MOVBE, a
    /// LZCNT, which Linux calls `abm`), and a virtual machine can hide one flag and show the rest.
    public var requiredFlags: [String] {
        let v2 = ["cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3"]
        let v3 = v2 + ["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"]
        switch self {
        case .avx512: return v3 + ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl", "avx512_vnni"]
        case .avx2vnni: return v3 + ["avx_vnni"]
        case .avx2: return v3
        case .portable: return []
        }
    }

    /// The flags of `requiredFlags` a CPU with `flags` lacks (none: it runs this variant).
    public func missing(from flags: Set<String>) -> [String] {
        requiredFlags.filter { !flags.contains($0) }
    }

    /// The register tiles of this build, for benchmarks to print beside their numbers (a figure
    /// means little without knowing which code made it).
    #if GLIMT_AVX512
    public static let description =
        "AVX-512 build: pointwise GEMM 4 px x 64 ch in 32 zmm registers (8 px x 16 ch on 16-wide panels), in int8 6 px x 32 ch (vpdpbusd), RGB stem 8 px x 16 ch, depthwise 16 ch x 8 px per step (rows under 8 interior outputs: a sliding window)"
    #elseif GLIMT_AVXVNNI
    public static let description =
        "AVX2 with AVX-VNNI build: pointwise GEMM 6 px x 16 ch (fits 16 ymm registers), in int8 6 px x 16 ch (vpdpbusd on ymm), RGB stem 6 px x 16 ch, depthwise 8 ch x 5 px per step on stride-1 rows"
    #elseif GLIMT_AVX2
    public static let description =
        "AVX2 build: pointwise GEMM 6 px x 16 ch (fits 16 ymm registers), in int8 6 px x 16 ch (vpmaddwd), RGB stem 6 px x 16 ch, depthwise 8 ch x 5 px per step on stride-1 rows"
    #else
    public static let description =
        "\(compiled.name) build: pointwise GEMM 6 px x 16 ch (fits 16 ymm registers), RGB stem 6 px x 16 ch, depthwise 8 ch x 5 px per step on stride-1 rows"
    #endif
}
