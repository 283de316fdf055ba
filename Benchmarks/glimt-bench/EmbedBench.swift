import Foundation
import GlimtPure
import MediaIO
import TensorLite

/// `glimt-bench embed`: SFace milliseconds per face, our engine vs onnxruntime and OpenCV DNN,
/// one thread each, same inputs, same run.
enum EmbedBench {
    static func run(repeats: Int, faces: Int, layers: Bool, peers: Bool) throws {
        let model = try SFace.shared()
        var seed: UInt64 = 42
        let images: [[UInt8]] = (0..<faces).map { _ in
            (0..<(112 * 112 * 3)).map { _ in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: seed >> 56)
            }
        }
        let rgb = images.map { RGBImage(width: 112, height: 112, pixels: $0) }
        let ours = Timing.medianMilliseconds(repeats) { for f in rgb { _ = model.forward(f) } } / Double(faces)
        print("SFace 112x112, \(faces) faces x \(repeats) runs, one thread")
        print(String(format: "  glimt-pure (TensorLite)  %8.2f ms/face  %6.1f GFLOPS", ours, 1.1355 / ours * 1000))
        // Batches: fc1's weights stream once per batch (same 8 faces, in batches of 1, 4 and 8).
        let eight = (0..<8).map { rgb[$0 % rgb.count] }
        for size in [1, 4, 8] {
            let ms = Timing.medianMilliseconds(repeats) {
                for start in stride(from: 0, to: 8, by: size) { _ = model.forward(batch: Array(eight[start..<(start + size)])) }
            } / 8
            print(String(format: "    batch %d                %8.2f ms/face  %6.1f GFLOPS", size, ms, 1.1355 / ms * 1000))
        }
        if peers {
            let r = PeerRunner.run(model: "sface", images: images, width: 112, height: 112, repeats: repeats)
            if let ms = r.onnxruntime { print(String(format: "  onnxruntime              %8.2f ms/face  (ours is %.2fx its speed)", ms, ms / ours)) }
            if let ms = r.opencv { print(String(format: "  OpenCV DNN               %8.2f ms/face  (ours is %.2fx its speed)", ms, ms / ours)) }
            if let note = r.note { print("  \(note)") }
        }
        if layers {
            let profile = LayerProfile()
            for _ in 0..<repeats { for f in rgb { _ = model.forward(f, profile: profile) } }
            LayerTable.print(profile, runs: repeats * faces)
        }
    }
}

enum LayerTable {
    static func print(_ profile: LayerProfile, runs: Int) {
        Swift.print("\n  layer                       ms/run   share   GFLOPS")
        let total = profile.total
        for name in profile.order {
            let s = profile.seconds[name]! / Double(runs)
            let f = Double(profile.flops[name] ?? 0)
            Swift.print("  " + name.padding(toLength: 24, withPad: " ", startingAt: 0)
                        + String(format: "%9.3f %6.1f%% %8.1f", s * 1000, profile.seconds[name]! / total * 100, f > 0 ? f / s / 1e9 : 0))
        }
        Swift.print("  " + "total".padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: " %9.3f", total / Double(runs) * 1000))
    }
}
