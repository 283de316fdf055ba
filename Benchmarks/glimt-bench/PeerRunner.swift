import Foundation

/// Runs Benchmarks/peers.py (onnxruntime and OpenCV DNN on the same inputs, one thread) when
/// Python with those packages is available, and returns their median ms per input.
enum PeerRunner {
    struct Result {
        var onnxruntime: Double?
        var opencv: Double?
        var note: String?
    }

    static func run(model: String, images: [[UInt8]], width: Int, height: Int, repeats: Int) -> Result {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("peers.py")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-bench-\(getpid()).rgb")
        defer { try? FileManager.default.removeItem(at: input) }
        do { try Data(images.flatMap { $0 }).write(to: input) } catch { return Result(note: "cannot write inputs: \(error)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script.path, "--model", model, "--inputs", input.path, "--count", "\(images.count)",
                       "--width", "\(width)", "--height", "\(height)", "--repeats", "\(repeats)"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { return Result(note: "python3 not available") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0,
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return Result(note: "peers not run (\(errText.split(separator: "\n").last.map(String.init) ?? "python3 failed"))")
        }
        if let e = json["error"] as? String { return Result(note: "peers not run: \(e)") }
        func ms(_ k: String) -> Double? { (json[k] as? [String: Any])?["ms"] as? Double }
        return Result(onnxruntime: ms("onnxruntime"), opencv: ms("opencv"))
    }
}
