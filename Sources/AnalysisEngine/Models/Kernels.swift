import Foundation
import GlimtCore
import TensorLite

/// The kernels the face models run on, as the program sees them: which build runs (`--version`
/// says it), and, first thing at start, handing over to the fastest build installed (see
/// TensorLite's `KernelChoice`). The CPU's flags are read from /proc/cpuinfo on every start
/// (microseconds); without them only the build itself can be chosen.
public enum Kernels {
    /// A build of the kernels, by its name (`avx512`) and as people write it (`AVX-512`).
    public struct Build: Equatable, Sendable {
        /// As GLIMT_KERNELS and the package's file names spell it: `avx512`, `avx2`...
        public let id: String
        /// `AVX-512`, `AVX2 with AVX-VNNI`...
        public let name: String
        /// The x86-64 level it is compiled for.
        public let level: String

        init(_ variant: KernelVariant) {
            (id, name, level) = (variant.rawValue, variant.name, variant.level)
        }
    }

    public static let environmentKey = KernelChoice.environmentKey

    /// Every build, fastest first.
    public static let all = KernelVariant.fastestFirst.map(Build.init)

    /// The build running now, once `start` has returned.
    public static let running = Build(KernelVariant.compiled)

    /// Whether GLIMT_KERNELS chose the running build (else it is the fastest the CPU runs, or the
    /// only one installed).
    public static var forced: Bool { ProcessInfo.processInfo.environment[environmentKey].map { !$0.isEmpty } ?? false }

    /// Called first thing: returns when this build is the one to run, or hands the process over
    /// to the one that is (never returning), or throws a one-line reason why nothing can run.
    public static func start() throws {
        let decision: KernelChoice.Decision
        do {
            decision = try KernelChoice.decide(
                compiled: KernelVariant.compiled, flags: CPUFlags.current(),
                forced: ProcessInfo.processInfo.environment[environmentKey], installed: installed(),
                shown: ShownPath.escaped)
        } catch let refusal as KernelChoice.Refusal {
            throw GlimtError(refusal.description)
        }
        guard case .handOver(let path, _) = decision else { return }
        FileName.withPath(path) { _ = execv($0, CommandLine.unsafeArgv) }
        throw GlimtError(
            "cannot start it (\(String(cString: strerror(errno)))); \(environmentKey)=\(KernelVariant.compiled.rawValue) runs this build instead",
            path: path)
    }

    /// The other builds installed beside this one: PREFIX/lib/glimt-pure/glimt-pure-VARIANT for
    /// a binary in PREFIX/bin.
    static func installed() -> [KernelVariant: String] {
        guard let binary = RunningBinary.path else { return [:] }
        let prefix = URL(fileURLWithPath: binary).deletingLastPathComponent().deletingLastPathComponent()
        var found: [KernelVariant: String] = [:]
        for k in KernelVariant.allCases {
            let path = prefix.appendingPathComponent("lib/glimt-pure/glimt-pure-\(k.rawValue)").path
            if path != binary, FileName.withPath(path, { access($0, X_OK) }) == 0 { found[k] = path }
        }
        return found
    }
}
