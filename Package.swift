// swift-tools-version:5.9
import PackageDescription
import Foundation

// The engine is built for the CPU it runs on: without a target CPU, swiftc lowers SIMD
// types to baseline SSE2 and fused multiply-adds become scalar calls (about 100x slower).
// GLIMT_TARGET_CPU picks another target for a portable build, e.g. `haswell` (AVX2) or `x86-64`.
let targetCPU = ProcessInfo.processInfo.environment["GLIMT_TARGET_CPU"] ?? "native"

// Compute code is optimised in every configuration, so `swift test` and debug builds
// do not run a -Onone engine. Whole-module, so small helpers (vector loads, epilogues) inline
// across files as they do in release builds; without it a debug build ran 3x slower.
let computeFlags: [SwiftSetting] = [.unsafeFlags(["-O", "-enforce-exclusivity=unchecked", "-target-cpu", targetCPU])]

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
        .target(name: "TensorLite", swiftSettings: computeFlags),
        .target(name: "SFaceWeights", resources: [.copy("Resources")]),
        .target(name: "GlimtPure", dependencies: ["CFFmpeg", "TensorLite", "SFaceWeights"], swiftSettings: computeFlags),
        .executableTarget(name: "glimt-pure", dependencies: ["GlimtPure"]),
        .executableTarget(name: "glimt-bench", dependencies: ["GlimtPure", "TensorLite"], path: "Benchmarks/glimt-bench", swiftSettings: computeFlags),
        .testTarget(name: "TensorLiteTests", dependencies: ["TensorLite"], swiftSettings: computeFlags),
        .testTarget(name: "GlimtPureTests", dependencies: ["GlimtPure", "TensorLite"], resources: [.copy("Fixtures")], swiftSettings: computeFlags),
        .testTarget(name: "CLITests", dependencies: ["glimt-pure"]),
    ]
)
