import Foundation
import Faces
import GlimtCore

/// Which build of the kernels runs. Swift has no per-function target attributes, so the kernels
/// for each x86-64 level are a build of their own: the Debian package installs the portable one
/// as PREFIX/bin/glimt-pure and the others as PREFIX/lib/glimt-pure/glimt-pure-avx512, -avx2vnni
/// and -avx2, and the portable one, started first, hands over (exec) to the fastest the CPU runs.
/// The one it hands to finds no variants beside itself and stays. A build installed alone
/// (tools/install.sh, a build folder) is the only one there is: it runs when the CPU can.
/// `GLIMT_KERNELS=avx512|avx2vnni|avx2|portable` forces one, refused in one line when the CPU cannot run
/// it or it is not installed. The CPU's flags are read from /proc/cpuinfo on every start
/// (microseconds); without them only the build itself can be chosen.
public enum KernelChoice {
    public static let environmentKey = "GLIMT_KERNELS"

    /// What a start comes to.
    public enum Decision: Equatable, Sendable {
        /// This build runs (`forced`: because GLIMT_KERNELS says so).
        case runHere(forced: Bool)
        /// Hand over to the installed build at the path.
        case handOver(to: String, Kernels)
    }

    /// The variant running now, once `start` has returned.
    public static var running: Kernels { Kernels.compiled }

    /// Whether GLIMT_KERNELS chose the running variant (else it is the fastest the CPU runs, or
    /// the only one installed).
    public static var forced: Bool { ProcessInfo.processInfo.environment[environmentKey].map { !$0.isEmpty } ?? false }

    /// Called first thing: returns when this build is the one to run, or hands the process over
    /// to the one that is (never returning), or throws a one-line reason why nothing can run.
    public static func start() throws {
        let decision = try decide(compiled: Kernels.compiled, flags: MachineCPU.current(),
                                  forced: ProcessInfo.processInfo.environment[environmentKey], installed: installed())
        guard case .handOver(let path, _) = decision else { return }
        FileName.withPath(path) { _ = execv($0, CommandLine.unsafeArgv) }
        throw GlimtError("cannot start it (\(String(cString: strerror(errno)))); \(environmentKey)=\(Kernels.compiled.rawValue) runs this build instead", path: path)
    }

    /// The choice, from what this build is, the CPU's flags (nil: unknown), GLIMT_KERNELS, and
    /// the other builds installed beside this one.
    public static func decide(compiled: Kernels, flags: Set<String>?, forced: String?, installed: [Kernels: String]) throws -> Decision {
        func runs(_ k: Kernels) -> Bool { flags.map { k.missing(from: $0).isEmpty } ?? (k == compiled || k == .portable) }
        func cannot(_ k: Kernels) -> String {
            guard let flags else { return "cannot tell whether this CPU runs the \(k.name) kernels (/proc/cpuinfo lists no flags)" }
            return "this CPU cannot run the \(k.name) kernels (it lacks \(k.missing(from: flags).joined(separator: ", ")))"
        }
        if let forced, !forced.isEmpty {
            guard let wanted = Kernels(rawValue: forced) else {
                throw GlimtError("\(environmentKey) must be \(Kernels.fastestFirst.map(\.rawValue).joined(separator: ", ")) or empty, not '\(ShownPath.escaped(forced))'")
            }
            guard runs(wanted) else {
                throw GlimtError("\(environmentKey)=\(forced): \(cannot(wanted)); unset it to run the fastest this CPU can")
            }
            if wanted == compiled { return .runHere(forced: true) }
            guard let path = installed[wanted] else {
                let here = ([compiled] + installed.keys).sorted { Kernels.fastestFirst.firstIndex(of: $0)! < Kernels.fastestFirst.firstIndex(of: $1)! }
                throw GlimtError("\(environmentKey)=\(forced): this glimt-pure holds only the \(here.map(\.name).joined(separator: " and ")) kernels "
                                 + "(the Debian package holds them all, see docs/packaging.md)")
            }
            return .handOver(to: path, wanted)
        }
        for k in Kernels.fastestFirst where runs(k) {
            if k == compiled { return .runHere(forced: false) }
            if let path = installed[k] { return .handOver(to: path, k) }
        }
        throw GlimtError("this glimt-pure was built with the \(compiled.name) kernels (for \(compiled.level)), and \(cannot(compiled)); "
                         + "build it on this machine (tools/install.sh), or for any x86-64 machine with GLIMT_TARGET_CPU=x86-64")
    }

    /// The other builds installed beside this one: PREFIX/lib/glimt-pure/glimt-pure-VARIANT for
    /// a binary in PREFIX/bin.
    static func installed() -> [Kernels: String] {
        guard let binary = RunningBinary.path else { return [:] }
        let prefix = URL(fileURLWithPath: binary).deletingLastPathComponent().deletingLastPathComponent()
        var found: [Kernels: String] = [:]
        for k in Kernels.allCases {
            let path = prefix.appendingPathComponent("lib/glimt-pure/glimt-pure-\(k.rawValue)").path
            if path != binary, FileName.withPath(path, { access($0, X_OK) }) == 0 { found[k] = path }
        }
        return found
    }
}
