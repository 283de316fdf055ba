import Analysis
import Faces
import Foundation
import GlimtPure
import MediaIO
import TensorLite

/// `glimt-bench eyes`: milliseconds per face to tell whether its eyes are open (two eye crops and
/// two runs of the iris landmark model), on one thread; with `--csv OUT VIDEO...` also every face of
/// every frame's openness, for tools/eyes/agreement.py to hold against MediaPipe FaceMesh.
enum EyesBench {
    static func run(repeats: Int, photo: String, csv: String?, videos: [String]) throws {
        let image = try ImageDecoder.decode(path: photo)
        let detector = try FaceDetector.shared()
        let reader = try EyeReader.shared()
        let faces = detector.detect(image)
        guard let face = faces.first else { throw GlimtError("no face in \(photo)") }
        let (right, _) = EyeReader.crops(of: face, in: image)
        let model = reader.model
        let perFace = Timing.medianMilliseconds(repeats) { _ = reader.eyes(of: face, in: image) }
        let crops = Timing.medianMilliseconds(repeats) { _ = EyeReader.crops(of: face, in: image) }
        let contour = Timing.medianMilliseconds(repeats) { _ = model.run(right, iris: false) }
        let both = Timing.medianMilliseconds(repeats) { _ = model.run(right) }
        let weights = Paths.inRepository("Sources/SFaceWeights/Resources/iris.glw")
        print("Eyes on \(photo) (\(faces.count) faces), one thread, median of \(repeats)")
        print(String(format: "  per face (2 crops + 2 contour runs)  %7.3f ms", perFace))
        print(String(format: "  two eye crops                        %7.3f ms", crops))
        print(String(format: "  one eye, contour branch only         %7.3f ms", contour))
        print(String(format: "  one eye, contour and iris branches   %7.3f ms", both))
        if let size = try? FileManager.default.attributesOfItem(atPath: weights)[.size] as? Int { print("  iris.glw: \(size) bytes") }
        guard let csv else { return }
        var out = "video,frame,face,rx,ry,lx,ly,open_right,open_left\n"
        var unlimited = detector
        unlimited.detectionSize = nil
        for video in videos {
            let frames = try VideoReader(path: video).frames(from: 0, to: 1e6, depth: .eightBit)
            var n = 0
            while let frame = try frames.next() {
                let picture = frame.picture.rgb8
                for (k, f) in unlimited.detect(picture).enumerated() {
                    let e = reader.eyes(of: f, in: picture)
                    let r = f.landmarks[0], l = f.landmarks[1]
                    out += "\(video),\(n),\(k),\(r.x),\(r.y),\(l.x),\(l.y),\(e.right),\(e.left)\n"
                }
                n += 1
            }
        }
        try out.write(toFile: csv, atomically: true, encoding: .utf8)
        print("  wrote \(csv)")
    }
}
