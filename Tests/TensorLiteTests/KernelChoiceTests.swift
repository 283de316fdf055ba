import Foundation
import TestSupport
import XCTest

@testable import TensorLite

/// Which kernels run: the fastest variant the CPU can run of those linked in, GLIMT_KERNELS when
/// it says so, and one line, never an illegal instruction, when the CPU cannot run what is asked.
final class KernelChoiceTests: XCTestCase {
    /// The flags of one CPU of each level, as /proc/cpuinfo lists them.
    static let v2: Set<String> = ["fpu", "sse", "sse2", "cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3"]
    static let v3 = v2.union(["avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"])
    /// x86-64-v3 with AVX-VNNI (Alder Lake and later Intel cores): int8 kernels on ymm registers.
    static let v3vnni = v3.union(["avx_vnni"])
    /// x86-64-v4 with VNNI, what the AVX-512 build (its int8 kernels) needs.
    static let v4 = v3.union(["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl", "avx512_vnni"])
    /// The Debian package's binary: compiled for any x86-64, with the faster variants linked in beside.
    static let package: Set<KernelVariant> = [.avx512, .avx2vnni, .avx2, .portable]

    private func decide(
        _ flags: Set<String>?, forced: String? = nil, compiled: KernelVariant = .portable, linked: Set<KernelVariant> = package
    ) throws -> KernelVariant {
        try KernelChoice.decide(compiled: compiled, flags: flags, forced: forced, linked: linked)
    }

    private func refusal(_ flags: Set<String>?, forced: String?, compiled: KernelVariant = .portable, linked: Set<KernelVariant> = package) -> String
    {
        do {
            let d = try decide(flags, forced: forced, compiled: compiled, linked: linked)
            return "no refusal: \(d)"
        } catch {
            return "\(error)"
        }
    }

    func testTheFastestVariantTheCPURunsIsChosen() throws {
        XCTAssertEqual(try decide(Self.v4), .avx512)
        XCTAssertEqual(try decide(Self.v3), .avx2)
        XCTAssertEqual(try decide(Self.v3vnni), .avx2vnni)
        // A CPU with both (Zen 5, Sapphire Rapids) runs the wider int8 kernels.
        XCTAssertEqual(try decide(Self.v4.union(["avx_vnni"])), .avx512)
        // Without the AVX-VNNI variant linked in, such a CPU runs the AVX2 one.
        XCTAssertEqual(try decide(Self.v3vnni, linked: Self.package.subtracting([.avx2vnni])), .avx2)
        XCTAssertEqual(try decide(Self.v2), .portable, "an old CPU runs the portable kernels")
        XCTAssertEqual(try decide(nil), .portable, "without /proc/cpuinfo nothing faster is tried")
        // AVX2 and FMA alone are not x86-64-v3: a virtual CPU that hides MOVBE gets the portable kernels.
        XCTAssertEqual(try decide(Self.v3.subtracting(["movbe"])), .portable)
        XCTAssertEqual(try decide(Self.v4.subtracting(["avx512bw"])), .avx2)
        // AVX-512 without VNNI (Skylake-SP/X) runs the AVX2 kernels, not int8 instructions it lacks.
        XCTAssertEqual(try decide(Self.v4.subtracting(["avx512_vnni"])), .avx2)
        // A build of one variant (a developer's) runs it.
        XCTAssertEqual(try decide(Self.v4, compiled: .avx512, linked: [.avx512]), .avx512)
        XCTAssertEqual(try decide(Self.v4, compiled: .avx2, linked: [.avx2]), .avx2)
        XCTAssertEqual(try decide(nil, compiled: .avx2, linked: [.avx2]), .avx2, "nothing known: the build runs as it was made to")
    }

    func testGlimtKernelsForcesOneAndIsRefusedInOneLineWhenItCannotRun() throws {
        XCTAssertEqual(try decide(Self.v4, forced: "avx2"), .avx2)
        XCTAssertEqual(try decide(Self.v4.union(["avx_vnni"]), forced: "avx2vnni"), .avx2vnni)
        XCTAssertEqual(try decide(Self.v4, forced: "portable"), .portable)
        XCTAssertEqual(try decide(Self.v4, forced: ""), .avx512, "empty is unset")
        XCTAssertEqual(try decide(Self.v4, forced: "avx2", compiled: .avx2, linked: [.avx2]), .avx2)
        let cases: [(Set<String>?, String, KernelVariant, Set<KernelVariant>, String)] = [
            (
                Self.v3, "avx512", .portable, Self.package,
                "GLIMT_KERNELS=avx512: this CPU cannot run the AVX-512 kernels (it lacks avx512f, avx512bw, avx512cd, avx512dq, avx512vl, avx512_vnni); unset it to run the fastest this CPU can"
            ),
            (
                Self.v2, "avx2", .portable, Self.package,
                "GLIMT_KERNELS=avx2: this CPU cannot run the AVX2 kernels (it lacks avx, avx2, bmi1, bmi2, f16c, fma, abm, movbe, xsave)"
            ),
            (
                nil, "avx2", .portable, Self.package,
                "GLIMT_KERNELS=avx2: cannot tell whether this CPU runs the AVX2 kernels (/proc/cpuinfo lists no flags)"
            ),
            (Self.v4, "sse", .portable, Self.package, "GLIMT_KERNELS must be avx512, avx2vnni, avx2, portable or empty, not 'sse'"),
            (
                Self.v3, "avx2vnni", .portable, Self.package,
                "GLIMT_KERNELS=avx2vnni: this CPU cannot run the AVX2 with AVX-VNNI kernels (it lacks avx_vnni)"
            ),
            (
                Self.v4, "portable", .avx512, [.avx512],
                "GLIMT_KERNELS=portable: this glimt-pure holds only the AVX-512 kernels (the Debian package holds them all"
            ),
            (
                Self.v3, "avx512", .portable, [.portable, .avx2],
                "GLIMT_KERNELS=avx512: this CPU cannot run the AVX-512 kernels"
            ),
            (
                Self.v4, "avx2vnni", .portable, [.portable, .avx2],
                "GLIMT_KERNELS=avx2vnni: this CPU cannot run the AVX2 with AVX-VNNI kernels (it lacks avx_vnni)"
            ),
            (
                Self.v4.union(["avx_vnni"]), "avx2vnni", .portable, [.portable, .avx2],
                "GLIMT_KERNELS=avx2vnni: this glimt-pure holds only the AVX2 and portable kernels"
            ),
            (
                Self.v3, "", .avx512, [.avx512],
                "this glimt-pure was built with the AVX-512 kernels (for x86-64-v4 with VNNI), and this CPU cannot run the AVX-512 kernels (it lacks avx512f"
            ),
            (
                Self.v3, "avx2", .avx512, [.avx512, .avx2],
                "this glimt-pure was built with the AVX-512 kernels (for x86-64-v4 with VNNI), and this CPU cannot run"
            ),
        ]
        for (flags, forced, compiled, linked, said) in cases {
            let line = refusal(flags, forced: forced, compiled: compiled, linked: linked)
            XCTAssertTrue(line.hasPrefix(said), "\(forced): \(line)")
            XCTAssertFalse(line.contains("\n"), line)
        }
    }

    /// Each level's flags include the level below's: a CPU that runs AVX-512 runs AVX2.
    func testTheLevelsNest() {
        XCTAssertTrue(Set(KernelVariant.avx2.requiredFlags).isSubset(of: KernelVariant.avx512.requiredFlags))
        XCTAssertTrue(Set(KernelVariant.avx2.requiredFlags).isSubset(of: KernelVariant.avx2vnni.requiredFlags))
        XCTAssertEqual(KernelVariant.avx2vnni.missing(from: Self.v3vnni), [])
        XCTAssertEqual(KernelVariant.portable.requiredFlags, [])
        XCTAssertEqual(KernelVariant.avx512.missing(from: Self.v4), [])
        XCTAssertEqual(KernelVariant.avx2.missing(from: Self.v4), [])
    }

    /// Only the first CPU's flags line is read, however many CPUs follow, and however the reads fall.
    func testTheFlagsComeFromTheFirstCPUsLine() throws {
        let folder = temporaryFolder(self)
        let cpu = (0..<200).map {
            "processor\t: \($0)\nvendor_id\t: GenuineIntel\nmodel name\t: " + String(repeating: "x", count: 90) + "\n"
                + "flags\t\t: fpu sse2 avx2 \($0 == 0 ? "avx512f" : "other")\n\n"
        }.joined()
        let file = folder.appendingPathComponent("cpuinfo")
        try ("filler\t: " + String(repeating: "y", count: 20_000) + "\n" + cpu).write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(CPUFlags.current(file.path), ["fpu", "sse2", "avx2", "avx512f"])
        try "processor\t: 0\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertNil(CPUFlags.current(file.path), "no flags line: nothing known")
        XCTAssertNil(CPUFlags.current(folder.appendingPathComponent("missing").path))
        XCTAssertNotNil(CPUFlags.current(), "this machine's /proc/cpuinfo")
    }
}
