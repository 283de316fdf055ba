import Foundation

/// Runs Benchmarks/peers.py (onnxruntime and OpenCV DNN on the same inputs, one thread) when
/// Python with those packages is available, and returns their median ms per input and the
/// graph's GFLOP per input (counted from the ONNX graph by peers.py).
enum PeerRunner {
    struct Result {
        var onnxruntime: Double?
        var opencv: Double?
        var gflop: Double?
        var note: String?
    }

    static func run(model: String, images: [[UInt8]], width: Int, height: Int, repeats: Int, extra: [String] = []) -> Result {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-\(getpid()).rgb")
        defer { try? FileManager.default.removeItem(at: input) }
        do { try Data(images.flatMap { $0 }).write(to: input) } catch { return Result(note: "cannot write inputs: \(error)") }
        let reply = Python.run(
            "peers.py",
            [
                "--model", model, "--inputs", input.path, "--count", "\(images.count)",
                "--width", "\(width)", "--height", "\(height)", "--repeats", "\(repeats)",
            ] + extra,
            environment: Machine.peerEnvironment)
        guard let json = reply.json else { return Result(note: "peers not run: \(reply.note ?? "")") }
        func ms(_ k: String) -> Double? { (json[k] as? [String: Any])?["ms"] as? Double }
        return Result(onnxruntime: ms("onnxruntime"), opencv: ms("opencv"), gflop: json["gflop"] as? Double)
    }
}
