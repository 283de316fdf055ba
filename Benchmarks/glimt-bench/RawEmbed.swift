import Foundation
import GlimtPure

enum RawEmbed {
    static func run(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let img = RGBImage(width: 112, height: 112, pixels: [UInt8](data))
        let out = try SFace.shared().forward(img)
        print(out.map { String($0) }.joined(separator: " "))
    }
}

enum RawYuNet {
    static func run(_ path: String, _ w: Int, _ h: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let img = RGBImage(width: w, height: h, pixels: [UInt8](data))
        let levels = try YuNet.shared().run(FaceDetector.padToMultipleOf32(img))
        var out: [Float] = []
        for l in levels { out += l.cls + l.obj + l.bbox + l.kps }
        try Data(bytes: out, count: out.count * 4).write(to: URL(fileURLWithPath: path + ".out"))
        var det = try FaceDetector.shared()
        det.detectionSize = nil
        for f in det.detect(img) { print(f.box.x, f.box.y, f.box.width, f.box.height, f.score, f.landmarks.map { "\($0.x),\($0.y)" }.joined(separator: " ")) }
    }
}
