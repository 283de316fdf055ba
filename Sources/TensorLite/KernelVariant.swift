/// Which register tiles this build's kernels were compiled with, for benchmarks to print beside
/// their numbers (a figure means little without knowing which code made it).
public enum KernelVariant {
#if GLIMT_AVX512
    public static let description = "AVX-512 build: pointwise GEMM 4 px x 64 ch in 32 zmm registers (8 px x 16 ch on 16-wide panels), RGB stem 8 px x 16 ch, depthwise 16 ch per step"
#else
    public static let description = "AVX2/portable build: pointwise GEMM 6 px x 16 ch (fits 16 ymm registers), RGB stem 6 px x 16 ch, depthwise 8 ch x 5 px per step on stride-1 rows"
#endif

    /// Whether the kernels were compiled for AVX-512 (else for AVX2 or portable code).
#if GLIMT_AVX512
    public static let avx512 = true
#else
    public static let avx512 = false
#endif
}
