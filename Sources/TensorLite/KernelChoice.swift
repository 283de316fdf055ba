/// Which build of the kernels runs. Swift has no per-function target attributes, so the kernels
/// for each x86-64 level are a build of their own: the Debian package installs the portable one
/// as PREFIX/bin/glimt-pure and the others as PREFIX/lib/glimt-pure/glimt-pure-avx512, -avx2vnni
/// and -avx2, and the portable one, started first, hands over (exec) to the fastest the CPU runs.
/// The one it hands to finds no variants beside itself and stays. A build installed alone (a
/// build folder, a developer's install) is the only one there is: it runs when the CPU can.
/// A forced choice (`GLIMT_KERNELS`) is refused in one line when the CPU cannot run it or it is
/// not installed. This is the decision only; starting the chosen build belongs to the program.
public enum KernelChoice {
    /// The environment variable that forces a variant.
    public static let environmentKey = "GLIMT_KERNELS"

    /// What a start comes to.
    public enum Decision: Equatable, Sendable {
        /// This build runs (`forced`: because GLIMT_KERNELS says so).
        case runHere(forced: Bool)
        /// Hand over to the installed build at the path.
        case handOver(to: String, KernelVariant)
    }

    /// Why no build can run, in one line.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The choice, from what this build is, the CPU's flags (nil: unknown), GLIMT_KERNELS, and
    /// the other builds installed beside this one. `shown` writes a value the person typed as it
    /// may be shown on a terminal.
    public static func decide(
        compiled: KernelVariant, flags: Set<String>?, forced: String?, installed: [KernelVariant: String],
        shown: (String) -> String = { $0 }
    ) throws -> Decision {
        func runs(_ k: KernelVariant) -> Bool { flags.map { k.missing(from: $0).isEmpty } ?? (k == compiled || k == .portable) }
        func cannot(_ k: KernelVariant) -> String {
            guard let flags else { return "cannot tell whether this CPU runs the \(k.name) kernels (/proc/cpuinfo lists no flags)" }
            return "this CPU cannot run the \(k.name) kernels (it lacks \(k.missing(from: flags).joined(separator: ", ")))"
        }
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
            if wanted == compiled { return .runHere(forced: true) }
            guard let path = installed[wanted] else {
                let here = ([compiled] + installed.keys).sorted {
                    KernelVariant.fastestFirst.firstIndex(of: $0)! < KernelVariant.fastestFirst.firstIndex(of: $1)!
                }
                throw Refusal(
                    description: "\(environmentKey)=\(forced): this glimt-pure holds only the \(here.map(\.name).joined(separator: " and ")) kernels "
                        + "(the Debian package holds them all, see docs/packaging.md)")
            }
            return .handOver(to: path, wanted)
        }
        for k in KernelVariant.fastestFirst where runs(k) {
            if k == compiled { return .runHere(forced: false) }
            if let path = installed[k] { return .handOver(to: path, k) }
        }
        throw Refusal(
            description: "this glimt-pure was built with the \(compiled.name) kernels (for \(compiled.level)), and \(cannot(compiled)); "
                + "build it on this machine (tools/install.sh), or for any x86-64 machine with GLIMT_TARGET_CPU=x86-64")
    }
}
