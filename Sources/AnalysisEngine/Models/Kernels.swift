import Analysis
import Faces
import Foundation
import GlimtCore
import TensorLite

#if canImport(Faces_avx512)
import Faces_avx512
#endif
#if canImport(Faces_avx2vnni)
import Faces_avx2vnni
#endif
#if canImport(Faces_avx2)
import Faces_avx2
#endif

/// The kernels the face models run on, as the program sees them: which build of the models runs
/// (`--version` says it), chosen once, first thing at start, among the builds linked into this
/// binary (see TensorLite's `KernelChoice`). A developer's build links one, Faces itself; the
/// Debian package's links Faces for any x86-64 and, beside it, Faces_avx512, Faces_avx2vnni and
/// Faces_avx2 (Package.swift's GLIMT_KERNEL_VARIANTS). The CPU's flags are read from
/// /proc/cpuinfo (microseconds); without them only Faces itself runs, compiled as the rest is.
public enum Kernels {
    /// A build of the kernels, by its name (`avx512`) and as people write it (`AVX-512`).
    public struct Build: Equatable, Sendable {
        /// As GLIMT_KERNELS spells it: `avx512`, `avx2`...
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

    /// The builds of the face models linked in, by the kernels each says it was compiled with.
    static let linked: [KernelVariant: any FaceModelsBuild.Type] = {
        var builds: [any FaceModelsBuild.Type] = [Faces.FacesBuild.self]
        #if canImport(Faces_avx512)
        builds.append(Faces_avx512.FacesBuild.self)
        #endif
        #if canImport(Faces_avx2vnni)
        builds.append(Faces_avx2vnni.FacesBuild.self)
        #endif
        #if canImport(Faces_avx2)
        builds.append(Faces_avx2.FacesBuild.self)
        #endif
        // Faces first: a variant compiled for the level it has too adds nothing.
        return Dictionary(builds.map { (KernelVariant(rawValue: $0.kernels)!, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The choice, made on first use: from the CPU's flags, GLIMT_KERNELS and the builds linked in.
    private static let choice = Result<KernelVariant, Error> {
        do {
            return try KernelChoice.decide(
                compiled: KernelVariant.compiled, flags: CPUFlags.current(),
                forced: ProcessInfo.processInfo.environment[environmentKey], linked: Set(linked.keys), shown: ShownPath.escaped)
        } catch let refusal as KernelChoice.Refusal {
            throw GlimtError(refusal.description)
        }
    }

    /// The face models of the build chosen, or a one-line reason why none can run.
    static func models() throws -> any FaceModelsBuild.Type { linked[try choice.get()]! }

    /// The build running now, once `start` has returned.
    public static var running: Build { Build((try? choice.get()) ?? KernelVariant.compiled) }

    /// Whether GLIMT_KERNELS chose the running build (else it is the fastest the CPU runs of
    /// those linked in).
    public static var forced: Bool { ProcessInfo.processInfo.environment[environmentKey].map { !$0.isEmpty } ?? false }

    /// Called first thing: returns when a build can run, else throws a one-line reason why not
    /// (before any code of a level the CPU lacks runs).
    public static func start() throws { _ = try choice.get() }
}
