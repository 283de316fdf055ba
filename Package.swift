// swift-tools-version:5.9
import Foundation
import PackageDescription

// The engine is built for the CPU it runs on: without a target CPU, swiftc lowers SIMD
// types to baseline SSE2 and fused multiply-adds become scalar calls (about 100x slower).
// GLIMT_TARGET_CPU picks another target for a portable build, e.g. `haswell` (AVX2) or `x86-64`;
// `+avxvnni` after a name adds AVX-VNNI to it (`haswell+avxvnni`: the package's AVX2 build for
// the CPUs that have AVX-VNNI without AVX-512, Alder Lake and later Intel cores).
let requestedCPU = ProcessInfo.processInfo.environment["GLIMT_TARGET_CPU"] ?? "native"

// Kernels size their register tiles to the register file: AVX-512 has 32 registers that each hold
// a SIMD16<Float>, AVX2 has 16 that hold half of one, and a tile made for the first spills on the
// second. `native` is this machine, so ask its CPU; a named target is wide only if it has AVX-512
// with VNNI (`vpdpbusd`, four int8 products summed into each 32-bit lane: the int8 kernels of
// QuantizedPointwiseConv need it). AVX-512 without VNNI (Skylake-SP/X, Cannon Lake, Xeon Phi) gets
// the AVX2 tiles: every AVX-512 CPU since (Cascade Lake, Ice Lake, Zen 4) has VNNI, and one build
// level for both would make the package's AVX-512 kernels run float SFace on all of them.
// The level is also what the build says it is (`glimt-pure --version`) and what a CPU needs to run
// it (KernelVariant): AVX-512 (GLIMT_AVX512), AVX2 with AVX-VNNI (GLIMT_AVX2 and GLIMT_AVXVNNI),
// AVX2 (GLIMT_AVX2) or portable (none). A target named in none of the lists below is called
// portable; it still gets the compiler's code for it.
let nativeFlags: Set<Substring> = {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    return Set(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ") ?? [])
}()

/// The settings of a compute module (kernels, pixel loops, models) compiled for `requested`, a
/// GLIMT_TARGET_CPU value: optimised in every configuration, so `swift test` and debug builds do
/// not run a -Onone engine, without exclusivity checks in their hot loops, for the target CPU.
func computeSettings(for requested: String) -> [SwiftSetting] {
    let targetCPU = requested.hasSuffix("+avxvnni") ? String(requested.dropLast("+avxvnni".count)) : requested
    let hasWideVectors: Bool = {
        if targetCPU == "native" { return nativeFlags.contains("avx512f") && nativeFlags.contains("avx512_vnni") }
        let avx512Targets: Set<String> = [
            "cascadelake", "cooperlake", "icelake-client", "icelake-server", "tigerlake", "rocketlake", "sapphirerapids",
            "emeraldrapids", "graniterapids", "graniterapids-d", "diamondrapids", "znver4", "znver5",
        ]
        return avx512Targets.contains(targetCPU)
    }()
    let hasAVX2: Bool = {
        if targetCPU == "native" { return nativeFlags.contains("avx2") && nativeFlags.contains("fma") }
        let avx2Targets: Set<String> = [
            "x86-64-v3", "x86-64-v4", "skylake-avx512", "cannonlake", "knl", "knm", "haswell", "broadwell", "skylake", "alderlake", "raptorlake",
            "meteorlake", "arrowlake", "arrowlake-s",
            "lunarlake", "gracemont", "pantherlake", "znver1", "znver2", "znver3",
        ]
        return hasWideVectors || avx2Targets.contains(targetCPU)
    }()
    // AVX2 with AVX-VNNI (`vpdpbusd` on ymm registers) runs SFace's pointwise layers in int8 too
    // (GLIMT_AVXVNNI). Named CPUs that have it without AVX-512 get it; the flag also tells the
    // C importer, whose intrinsics the kernel calls.
    let hasAVXVNNI: Bool = {
        guard hasAVX2 && !hasWideVectors else { return false }
        if requested.hasSuffix("+avxvnni") { return true }
        if targetCPU == "native" { return nativeFlags.contains("avx_vnni") }
        let vnniTargets: Set<String> = [
            "alderlake", "raptorlake", "meteorlake", "arrowlake", "arrowlake-s", "lunarlake", "gracemont", "pantherlake",
            "sierraforest", "grandridge", "clearwaterforest",
        ]
        return vnniTargets.contains(targetCPU)
    }()
    return [.unsafeFlags(["-O", "-enforce-exclusivity=unchecked", "-target-cpu", targetCPU, "-enable-testing"])]
        + (hasWideVectors ? [.define("GLIMT_AVX512")] : hasAVX2 ? [.define("GLIMT_AVX2")] : [])
        + (hasAVXVNNI ? [.define("GLIMT_AVXVNNI"), .unsafeFlags(["-Xcc", "-mavxvnni"])] : [])
}

// The Debian package's one binary holds the face models and their kernels once per x86-64
// level, and runs the fastest the CPU can (AnalysisEngine's Kernels): tools/package/package.sh
// builds for GLIMT_TARGET_CPU=x86-64 with GLIMT_KERNEL_VARIANTS="avx512=cascadelake ...", each
// VARIANT=CPU adding TensorLite_VARIANT and Faces_VARIANT, the same sources compiled for CPU
// (Sources/Variants/VARIANT holds links to them: SwiftPM refuses two targets in one folder).
// Faces_VARIANT's `import TensorLite` is its own variant's (swiftc's -module-alias). Without the
// variable a build has one variant, its target CPU's.
let kernelVariants: [(name: String, cpu: String)] = (ProcessInfo.processInfo.environment["GLIMT_KERNEL_VARIANTS"] ?? "")
    .split(separator: " ").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : parts[0])
    }

// Every module is built -enable-testing, the tests' flag, so that `swift run`, `swift build`,
// tools/test.sh and tools/install.sh compile the same modules with the same flags into one
// .build/release and share it: with the flag only on the test command, each switch between
// running and testing recompiled every module. It costs no speed (Benchmarks/README.md).
let testable: [SwiftSetting] = [.unsafeFlags(["-enable-testing"])]

// Compute modules are built with computeFlags; everything else keeps Swift's defaults.
let computeFlags = computeSettings(for: requestedCPU)

// The house: each module lists the only modules it may import. Arrows point down:
//
//   glimt-pure (CLI) -> GlimtPure (facade: the use cases) -> Film, Library, AnalysisEngine
//   AnalysisEngine -> MediaIO, Faces, TensorLite, Analysis;  Film -> MediaIO -> CFFmpeg
//   Library -> CSQLite, Analysis;  Faces -> TensorLite, SFaceWeights, Analysis
//   everything -> Imaging, GlimtCore
//
// Every build fails on an import that is not listed here (Plugins/ImportCheck, at the end).
let package = Package(
    name: "glimt-pure",
    products: [
        .executable(name: "glimt-pure", targets: ["glimt-pure"]),
        .library(name: "GlimtPure", targets: ["GlimtPure"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev", "libswresample-dev"])]
        ),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "GlimtCore", swiftSettings: testable),
        .target(name: "CPrefetch"),
        .target(name: "TensorLite", dependencies: ["CPrefetch"], swiftSettings: computeFlags),
        .target(name: "SFaceWeights", resources: [.copy("Resources")], swiftSettings: testable),
        .target(name: "Imaging", swiftSettings: computeFlags),
        .target(name: "MediaIO", dependencies: ["CFFmpeg", "GlimtCore", "Imaging"], swiftSettings: computeFlags),
        .target(name: "Analysis", dependencies: ["GlimtCore", "Imaging"], swiftSettings: computeFlags),
        .target(name: "Faces", dependencies: ["TensorLite", "SFaceWeights", "GlimtCore", "Imaging", "Analysis"], swiftSettings: computeFlags),
        .target(
            name: "AnalysisEngine",
            dependencies: ["GlimtCore", "Imaging", "MediaIO", "Faces", "TensorLite", "Analysis"]
                + kernelVariants.map { .byName(name: "Faces_" + $0.name) },
            swiftSettings: computeFlags),
        .target(name: "Film", dependencies: ["GlimtCore", "Imaging", "MediaIO"], swiftSettings: testable),
        .target(name: "Library", dependencies: ["CSQLite", "GlimtCore", "Imaging", "Analysis"], swiftSettings: testable),
        // The review page's own files are resources (Review/Page, found by PageFiles); its palette
        // is also the sheets', made Swift at build time by Plugins/Palette.
        .target(
            name: "GlimtPure", dependencies: ["GlimtCore", "Imaging", "Analysis", "AnalysisEngine", "Film", "Library"],
            resources: [.copy("Review/Page")], swiftSettings: testable, plugins: ["Palette"]),
        // The CLI bakes in the git commit it is built from (`glimt-pure --version`), see Plugins/BuildCommit.
        .executableTarget(name: "glimt-pure", dependencies: ["GlimtPure"], swiftSettings: testable, plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // Every Swift target imports only what it declares (a build error otherwise): the arrows above.
        .plugin(name: "ImportCheck", capability: .buildTool()),
        .plugin(name: "Palette", capability: .buildTool()),
        .executableTarget(
            name: "glimt-bench", dependencies: ["GlimtPure", "Faces", "TensorLite", "Imaging", "MediaIO", "Analysis", "AnalysisEngine"],
            path: "Benchmarks/glimt-bench", swiftSettings: computeFlags),
        // What every test target shares: the fixtures (Tests/Fixtures), temporary folders,
        // generated clips, and running the built binary.
        .target(name: "TestSupport", dependencies: ["GlimtCore", "Imaging", "MediaIO"], path: "Tests/TestSupport", swiftSettings: testable),
        // One test target per module, depending only on that module, TestSupport and what the
        // module itself may import: the import check holds the tests to the house's arrows too.
        .testTarget(name: "GlimtCoreTests", dependencies: ["GlimtCore", "TestSupport"], swiftSettings: testable),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"], swiftSettings: computeFlags),
        .testTarget(name: "TensorLiteTests", dependencies: ["TensorLite", "TestSupport"], swiftSettings: computeFlags),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "CFFmpeg", "GlimtCore", "Imaging", "TestSupport"], swiftSettings: computeFlags),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "GlimtCore", "Imaging", "TestSupport"], swiftSettings: computeFlags),
        .testTarget(
            name: "FacesTests", dependencies: ["Faces", "TensorLite", "SFaceWeights", "GlimtCore", "Imaging", "Analysis", "TestSupport"],
            swiftSettings: computeFlags),
        .testTarget(
            name: "AnalysisEngineTests",
            dependencies: [
                "AnalysisEngine", "GlimtCore", "Imaging", "MediaIO", "Faces", "TensorLite", "Analysis",
                "TestSupport",
            ], swiftSettings: computeFlags),
        .testTarget(name: "FilmTests", dependencies: ["Film", "GlimtCore", "Imaging", "MediaIO", "TestSupport"], swiftSettings: computeFlags),
        .testTarget(
            name: "LibraryTests", dependencies: ["Library", "CSQLite", "GlimtCore", "Imaging", "Analysis", "TestSupport"], swiftSettings: testable),
        .testTarget(
            name: "GlimtPureTests",
            dependencies: ["GlimtPure", "GlimtCore", "Imaging", "Analysis", "AnalysisEngine", "Film", "Library", "TestSupport"],
            swiftSettings: computeFlags),
        // The built binary, as a user runs it (GlimtPure to read what it stored, MediaIO what it
        // wrote, TensorLite which kernel builds a CPU runs). Not optimised: its time is the binary's,
        // and optimising it took 35 of a fresh test build's 155 s, the last module before linking.
        .testTarget(
            name: "CLITests", dependencies: ["glimt-pure", "GlimtPure", "Imaging", "MediaIO", "TensorLite", "TestSupport"], exclude: ["Golden"],
            swiftSettings: [.unsafeFlags(["-Onone"])]),
        // The house's rules, read from the sources and Package.swift themselves.
        .testTarget(name: "HouseTests", dependencies: []),
    ]
)

// The kernel variants' modules (see kernelVariants above).
for variant in kernelVariants {
    let tensorLite = "TensorLite_" + variant.name, faces = "Faces_" + variant.name
    package.targets += [
        .target(
            name: tensorLite, dependencies: ["CPrefetch"], path: "Sources/Variants/\(variant.name)/TensorLite",
            swiftSettings: computeSettings(for: variant.cpu)),
        .target(
            name: faces, dependencies: [.target(name: tensorLite), "SFaceWeights", "GlimtCore", "Imaging", "Analysis"],
            path: "Sources/Variants/\(variant.name)/Faces",
            swiftSettings: computeSettings(for: variant.cpu) + [.unsafeFlags(["-module-alias", "TensorLite=" + tensorLite])]),
    ]
}

// Every Swift target runs Plugins/ImportCheck: an import it does not declare fails the build.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.plugins = (target.plugins ?? []) + [.plugin(name: "ImportCheck")]
}
