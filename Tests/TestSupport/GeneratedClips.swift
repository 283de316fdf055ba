import Foundation
import Imaging
import MediaIO

/// Small generated clips for library tests: a face photo moving across a 320x240 picture, dated
/// by its file name (`VID_YYYYMMDD_120000_N.mp4`). Each clip's pixels differ, so each has its own
/// content key. The background is a textured gradient, not a flat colour: flat colours are what
/// the screen detector looks for, and these stand for camera videos.
public enum GeneratedClips {
    public struct Clip {
        public let day: String
        public let face: String  // fixture photo

        public init(day: String, face: String) {
            self.day = day
            self.face = face
        }
    }

    /// Obama and Biden on 05-01, Biden alone on 05-02, Obama alone on 05-03.
    public static let days: [Clip] = [
        Clip(day: "20240501", face: "yunet/obama.png"), Clip(day: "20240501", face: "yunet/biden.png"),
        Clip(day: "20240502", face: "yunet/biden.png"), Clip(day: "20240503", face: "yunet/obama2.png"),
    ]

    @discardableResult
    public static func write(_ clips: [Clip] = days, to folder: String, seconds: Double = 1.5, fps: Int = 10) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for (n, clip) in clips.enumerated() {
            let face = Resize.fitting(try Fixtures.image(clip.face), longSide: 150)
            let path = folder + "/VID_\(clip.day)_120000_\(n).mp4"
            let writer = try FilmWriter(path: path, width: 320, height: 240, fps: fps, audio: false)
            let background = background(n)
            for k in 0..<Int(seconds * Double(fps)) {
                var frame = background
                frame.paste(face, x: 20 + 6 * k + 3 * n, y: 30 + k % 3)
                try writer.append(frame)
            }
            try writer.finish()
            paths.append(path)
        }
        return paths
    }

    /// The textured gradient behind clip `n`'s face.
    static func background(_ n: Int) -> RGBImage {
        var background = RGBImage(width: 320, height: 240, fill: (0, 0, 0))
        for y in 0..<240 {
            for x in 0..<320 {
                let i = (y * 320 + x) * 3
                background.pixels[i] = UInt8(20 + (20 * n + 3 * x + y) % 200)
                background.pixels[i + 1] = UInt8(60 + (5 * x + 2 * y) % 90)
                background.pixels[i + 2] = UInt8(100 + (x * y) % 40)
            }
        }
        return background
    }

    /// One clip of `day` (YYYYMMDD) in scenes of `secondsEach`: scene i shows the fixture photo
    /// `faces[i]` (nil: no one), still, at the left for even scenes and the right for odd ones,
    /// so that no face is followed into the next scene's (see `FaceTracker`). Who is on screen
    /// when is exact: scene i is [i * secondsEach, (i + 1) * secondsEach).
    public static func write(scenes faces: [String?], day: String, to folder: String, secondsEach: Double = 1.5, fps: Int = 10) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/VID_\(day)_120000_scenes.mp4"
        let photos = try faces.map { try $0.map { Resize.fitting(try Fixtures.image($0), longSide: 150) } }
        let writer = try FilmWriter(path: path, width: 320, height: 240, fps: fps, audio: false)
        let background = background(7)
        let perScene = Int((secondsEach * Double(fps)).rounded())
        for (i, photo) in photos.enumerated() {
            for _ in 0..<perScene {
                var frame = background
                if let photo { frame.paste(photo, x: i % 2 == 0 ? 10 : 320 - photo.width - 10, y: 40) }
                try writer.append(frame)
            }
        }
        try writer.finish()
        return path
    }
}
