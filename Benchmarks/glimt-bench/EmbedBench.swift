import Faces
import Foundation
import GlimtPure
import MediaIO
import TensorLite

/// `glimt-bench embed`: SFace milliseconds per face at batch 1, 4 and 8 (`SFace.embed(_ faces:)`),
/// our engine vs onnxruntime and OpenCV DNN given the same batches, one thread each, same inputs,
/// same run; and face alignment (ours vs cv2.FaceRecognizerSF.alignCrop).
enum EmbedBench {
    /// GFLOP per face, counted from the ONNX graph (2 x multiply-adds of every Conv and the Gemm),
    /// used when peers.py cannot run.
    static let graphGflop = 1.14827776
    static let batches = [1, 4, 8]

    static func run(repeats: Int, faces: Int, layers: Bool, peers: Bool) throws {
        print("SFace 112x112, \(max(faces, 8)) faces x \(repeats) runs, one thread")
        let sgemm = peers ? Machine.sgemm().gflops : nil
        StageTable.printTable(try records(repeats: repeats, faces: faces, peers: peers), sgemm: sgemm)
        if layers {
            let model = try SFace.shared()
            let rgb = randomFaces(faces)
            let single = LayerProfile(), batched = LayerProfile()
            // Interleaved, so both tables see the same machine.
            for _ in 0..<repeats {
                for f in rgb { _ = model.forward(f, profile: single) }
                _ = model.forward(batch: rgb, profile: batched)
            }
            Swift.print("\nbatch 1")
            LayerTable.print(single, runs: repeats * faces)
            Swift.print("\nbatch \(faces), per face (conv_13 and conv_14's pointwise layers and fc1 run once per batch)")
            LayerTable.print(batched, runs: repeats * faces)
        }
    }

    /// Deterministic noise faces: the network's cost does not depend on what it sees.
    static func randomFaces(_ n: Int) -> [RGBImage] {
        var seed: UInt64 = 42
        return (0..<n).map { _ in
            RGBImage(
                width: 112, height: 112,
                pixels: (0..<(112 * 112 * 3)).map { _ in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: seed >> 56)
                })
        }
    }

    /// One record per batch size and peer, for the product's network (`SFace.shared()`); where
    /// that is the int8 one, also a row per batch size against the float network, timed in turn
    /// with it. `faces` is rounded up to a multiple of every batch.
    static func records(repeats: Int, faces: Int, peers: Bool) throws -> [StageRecord] {
        let model = try SFace.shared()
        let float = model.arithmetic == .float ? nil : try SFace.baked(.float)
        let n = max(8, (faces + 7) / 8 * 8)
        let rgb = randomFaces(n)
        return batches.flatMap { batch -> [StageRecord] in
            let chunks = stride(from: 0, to: n, by: batch).map { Array(rgb[$0..<($0 + batch)]) }
            let run = { (m: SFace) in { for c in chunks { _ = m.embed(c) } } }
            let times = Timing.interleavedMedians(repeats, [run(model)] + (float.map { [run($0)] } ?? []))
            let ours = times[0] / Double(n)
            var rows: [StageRecord] = []
            if times.count > 1 {
                rows.append(
                    StageRecord(
                        stage: "SFace batch \(batch) int8, ms/face", oursMs: ours, peer: "ours in float", peerMs: times[1] / Double(n),
                        gflop: graphGflop))
            }
            let base = StageRecord(stage: "SFace batch \(batch)\(float == nil ? "" : " int8"), ms/face", oursMs: ours, gflop: graphGflop)
            guard peers else { return rows.isEmpty ? [base] : rows }
            return rows
                + PeerRunner.run(
                    model: "sface", images: rgb.map(\.pixels), width: 112, height: 112, repeats: repeats,
                    extra: ["--batch", "\(batch)"]
                ).records(base)
        }
    }

    /// Alignment of one face of `image` (its first detected face) to SFace's 112x112 template.
    static func alignmentRecord(_ image: RGBImage, repeats: Int, peers: Bool) throws -> StageRecord {
        guard let face = try FaceDetector.shared().detect(image).first else {
            return StageRecord(stage: "alignment, ms/face", note: "no face in the picture")
        }
        let ours = Timing.medianMilliseconds(repeats * 10) { _ = FaceAlignment.align(image, landmarks: face.landmarks) }
        var r = StageRecord(stage: "alignment, ms/face", oursMs: ours)
        guard peers else { return r }
        let landmarks = face.landmarks.flatMap { [$0.x, $0.y] }.map { "\($0)" }.joined(separator: ",")
        let peer = PeerRunner.run(
            model: "align", images: [image.pixels], width: image.width, height: image.height, repeats: repeats * 10,
            extra: ["--landmarks", landmarks])
        if let ms = peer.opencv { r.peer = "OpenCV alignCrop"; r.peerMs = ms } else { r.note = peer.note }
        return r
    }
}

enum LayerTable {
    static func print(_ profile: LayerProfile, runs: Int) {
        Swift.print("\n  layer                       ms/run   share   GFLOPS")
        let total = profile.total
        for name in profile.order {
            let s = profile.seconds[name]! / Double(runs)
            let f = Double(profile.flops[name] ?? 0)
            Swift.print(
                "  " + name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%9.3f %6.1f%% %8.1f", s * 1000, profile.seconds[name]! / total * 100, f / profile.seconds[name]! / 1e9))
        }
        Swift.print("  " + "total".padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: " %9.3f", total / Double(runs) * 1000))
    }
}
