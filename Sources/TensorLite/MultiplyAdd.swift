/// `acc += a * b` for the kernels' vectors, in the form the build's CPU runs fast. The AVX2 and
/// AVX-512 builds have FMA: one fused instruction, rounded once. The portable build (x86-64,
/// SSE2) has none, and a fused multiply-add it cannot emit becomes a libm call for every lane, so
/// there it is a multiply and an add, rounded twice (within the golden tests' tolerances, which
/// PackageTests holds the portable build to).
extension SIMD16 where Scalar == Float {
    @inline(__always) mutating func accumulate(_ a: Self, _ b: Self) {
        #if GLIMT_AVX2 || GLIMT_AVX512
        addProduct(a, b)
        #else
        self += a * b
        #endif
    }
}

extension SIMD8 where Scalar == Float {
    @inline(__always) mutating func accumulate(_ a: Self, _ b: Self) {
        #if GLIMT_AVX2 || GLIMT_AVX512
        addProduct(a, b)
        #else
        self += a * b
        #endif
    }
}
