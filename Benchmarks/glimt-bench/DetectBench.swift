import Foundation
import GlimtPure
import MediaIO
import TensorLite

/// `glimt-bench detect`: YuNet milliseconds per image at 320x320 and 640x640, our engine vs
/// onnxruntime and OpenCV DNN, one thread each, same inputs, same run. Ours includes decoding
/// and NMS; the peers run the network only.
enum DetectBench {
    static func run(repeats: Int, layers: Bool, peers: Bool, photo: String) throws {
        let detector = try FaceDetector.shared()
        let source = try ImageDecoder.decode(path: photo)
        print("YuNet on \(photo), one thread")
        for size in [320, 640] {
            let image = Resize.resize(source, width: size, height: size)
            var faces = 0
            let ours = Timing.medianMilliseconds(repeats) { faces = detector.detectAtNetworkSize(image).count }
            print(String(format: "  %dx%d  glimt-pure (TensorLite)  %7.2f ms  (%d faces)", size, size, ours, faces))
            if peers {
                let r = PeerRunner.run(model: "yunet", images: [image.pixels], width: size, height: size, repeats: repeats)
                if let ms = r.onnxruntime { print(String(format: "  %dx%d  onnxruntime              %7.2f ms  (ours is %.2fx its speed)", size, size, ms, ms / ours)) }
                if let ms = r.opencv { print(String(format: "  %dx%d  OpenCV DNN               %7.2f ms  (ours is %.2fx its speed)", size, size, ms, ms / ours)) }
                if let note = r.note { print("  \(note)") }
            }
            if layers {
                let profile = LayerProfile()
                for _ in 0..<repeats { _ = detector.detectAtNetworkSize(image, profile: profile) }
                LayerTable.print(profile, runs: repeats)
            }
        }
    }
}
