/// Which build of the kernels runs. Swift has no per-function target attributes, so the kernels
/// for each x86-64 level are modules of their own: the Debian package's one binary links this
/// module (and the face models on it) compiled for any x86-64, and beside it the same sources
/// compiled for AVX-512, AVX2 with AVX-VNNI and AVX2 (TensorLite_avx512 and the others), and runs
/// the fastest the CPU can. A build with one variant linked (a build folder, a developer's
/// install) runs it when the CPU can. A forced choice (`GLIMT_KERNELS`) is refused in one line
/// when the CPU cannot run it or it is not linked in. This is the decision only; running the
/// chosen build belongs to the program.
public enum KernelChoice {
    /// The environment variable that forces a variant.
    public static let environmentKey = "GLIMT_KERNELS"

    /// Why no build can run, in one line.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The variant to run, from what the rest of the program was compiled for (`compiled`: it
    /// runs whatever kernels run), the CPU's flags (nil: unknown), GLIMT_KERNELS, and the variants
    /// linked in. `shown` writes a value the person typed as it may be shown on a terminal.
    public static func decide(
        compiled: KernelVariant, flags: Set<String>?, forced: String?, linked: Set<KernelVariant>,
        shown: (String) -> String = { $0 }
    ) throws -> KernelVariant {
        func runs(_ k: KernelVariant) -> Bool { flags.map { k.missing(from: $0).isEmpty } ?? (k == compiled || k == .portable) }
        func cannot(_ k: KernelVariant) -> String {
            guard let flags else { return "cannot tell whether this CPU runs the \(k.name) kernels (/proc/cpuinfo lists no flags)" }
            return "this CPU cannot run the \(k.name) kernels (it lacks \(k.missing(from: flags).joined(separator: ", ")))"
        }
        // Everything but the kernels is compiled for `compiled`: a CPU that cannot run it runs nothing.
        guard runs(compiled) else {
            throw Refusal(
                description: "this glimt-pure was built with the \(compiled.name) kernels (for \(compiled.level)), and \(cannot(compiled)); "
                    + "build it on this machine (tools/install.sh), or for any x86-64 machine with GLIMT_TARGET_CPU=x86-64")
        }
        let here = KernelVariant.fastestFirst.filter { linked.contains($0) || $0 == compiled }
        if let forced, !forced.isEmpty {
            guard let wanted = KernelVariant(rawValue: forced) else {
                throw Refusal(
                    description:
                        "\(environmentKey) must be \(KernelVariant.fastestFirst.map(\.rawValue).joined(separator: ", ")) or empty, not '\(shown(forced))'"
                )
            }
            guard runs(wanted) else {
                throw Refusal(description: "\(environmentKey)=\(forced): \(cannot(wanted)); unset it to run the fastest this CPU can")
            }
            guard here.contains(wanted) else {
                throw Refusal(
                    description: "\(environmentKey)=\(forced): this glimt-pure holds only the \(here.map(\.name).joined(separator: " and ")) kernels "
                        + "(the Debian package holds them all, see docs/packaging.md)")
            }
            return wanted
        }
        return here.first(where: runs) ?? compiled
    }
}
