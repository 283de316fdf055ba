import Faces
import Foundation
import GlimtPure
import MediaIO
import TensorLite

/// `glimt-bench detect`: YuNet milliseconds per image at 320x320 and 640x640, our engine vs
/// onnxruntime and OpenCV DNN, one thread each, same inputs, same run. Ours includes decoding
/// and NMS; the peers run the network only.
enum DetectBench {
    /// GFLOP per image, counted from the ONNX graph (peers.py's graph_gflop: 2 x multiply-adds of
    /// every Conv); used when peers.py cannot run, else its own count is.
    static let graphGflop: [Int: Double] = [320: 0.172112, 640: 0.688448]

    static func run(repeats: Int, layers: Bool, peers: Bool, photo: String) throws {
        let source = try ImageDecoder.decode(path: photo)
        print("YuNet on \(photo), one thread")
        let sgemm = peers ? Machine.sgemm().gflops : nil
        StageTable.printTable(try records(source, repeats: repeats, peers: peers), sgemm: sgemm)
        if layers {
            let detector = try FaceDetector.shared()
            for size in [320, 640] {
                let image = Resize.resize(source, width: size, height: size)
                let profile = LayerProfile()
                for _ in 0..<repeats { _ = detector.detectAtNetworkSize(image, profile: profile) }
                print("\n  \(size)x\(size)")
                LayerTable.print(profile, runs: repeats)
            }
        }
    }

    /// One record per size and peer: `source` squeezed to size x size and detected.
    static func records(_ source: RGBImage, repeats: Int, peers: Bool) throws -> [StageRecord] {
        let detector = try FaceDetector.shared()
        return [320, 640].flatMap { size -> [StageRecord] in
            let image = Resize.resize(source, width: size, height: size)
            var faces = 0
            let ours = Timing.medianMilliseconds(repeats) { faces = detector.detectAtNetworkSize(image).count }
            let base = StageRecord(
                stage: "YuNet \(size)x\(size), 1 thread", oursMs: ours, gflop: graphGflop[size], note: "\(faces) faces; peers: network only")
            guard peers else { return [base] }
            return PeerRunner.run(model: "yunet", images: [image.pixels], width: size, height: size, repeats: repeats).records(base)
        }
    }
}

extension PeerRunner.Result {
    /// `base` (our figure) once per peer that ran, or once with the reason none did.
    func records(_ base: StageRecord) -> [StageRecord] {
        var out: [StageRecord] = []
        for (name, ms) in [("onnxruntime", onnxruntime), ("OpenCV DNN", opencv)] {
            guard let ms else { continue }
            var r = base
            r.peer = name
            r.peerMs = ms
            r.gflop = gflop ?? base.gflop
            out.append(r)
        }
        if out.isEmpty {
            var r = base
            r.note = [base.note, note].compactMap { $0 }.joined(separator: "; ")
            out.append(r)
        }
        return out
    }
}
