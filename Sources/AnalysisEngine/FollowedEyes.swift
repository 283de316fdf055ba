import Analysis
import Faces
import GlimtCore
import Imaging
import MediaIO

/// The person's face in every frame of a film's second, for `film --align eyes` (`EyeAlignment`):
/// each frame the film will show is decoded again (the part of the picture around the pick's
/// crop, at `detectionSide`) and its faces found. The person is the face the pick was framed on:
/// of all the faces of the second, the one nearest the crop's face position (with references the
/// crop was centred on the person, else on the most prominent face). From that frame the face is
/// followed backwards and forwards, each frame's face the one nearest where it was last seen.
public enum FollowedEyes {
    /// Long side of the picture faces are looked for in: YuNet's standard input.
    static let detectionSide = FaceDetector.standardSize
    /// The searched part of the picture: the pick's crop grown this much about its centre, so a
    /// person who moves within the second is still found.
    static let searchGrowth: Float = 1.6
    /// The same face in a later frame: its centre moved less than this many face heights from
    /// where it was last seen.
    static let sameFace: Float = 0.6

    public struct Frame: Sendable {
        public var time: Double
        /// The followed face's five landmarks in the video's upright pixels (nil: not found).
        public var landmarks: [Point]?
    }

    /// The frames shown from `start` for `length` seconds of the video at `path`, with the face
    /// the pick's `crop` was framed on.
    public static func find(path: String, start: Double, length: Double, crop: Box) throws -> [Frame] {
        let reader = try VideoReader(path: path)
        let info = reader.info
        let screen = ScreenPicture(info)
        let W = Float(info.displayWidth), H = Float(info.displayHeight)
        let c = crop.center
        let gw = min(W, crop.width * searchGrowth), gh = min(H, crop.height * searchGrowth)
        let area = Box(
            x: min(max(c.x - gw / 2, 0), W - gw).rounded(.down), y: min(max(c.y - gh / 2, 0), H - gh).rounded(.down),
            width: gw.rounded(.down), height: gh.rounded(.down))
        let scale = Float(detectionSide) / max(area.width, area.height)
        let region = FrameRegion(
            crop: area, width: max(32, Int((area.width * scale).rounded())), height: max(32, Int((area.height * scale).rounded())))
        var detector = try FaceDetector.shared()
        detector.detectionSize = nil
        let frames = try reader.frames(from: start, to: start + length, depth: screen.depth, region: region)
        var times: [Double] = []
        var faces: [[DetectedFace]] = []
        while let f = try frames.next() {
            let picture = screen.image(f.picture)
            let sx = area.width / Float(picture.width), sy = area.height / Float(picture.height)
            times.append(f.time)
            faces.append(
                detector.detect(picture).map { d in
                    DetectedFace(
                        box: Box(x: area.x + d.box.x * sx, y: area.y + d.box.y * sy, width: d.box.width * sx, height: d.box.height * sy),
                        landmarks: d.landmarks.map { Point(area.x + $0.x * sx, area.y + $0.y * sy) }, score: d.score)
                })
        }
        let followed = follow(faces, from: Point(c.x, crop.y + Framing.faceHeightPosition * crop.height))
        return zip(times, followed).map { Frame(time: $0, landmarks: $1?.landmarks) }
    }

    /// Per frame, the face followed from the one nearest `anchor` over all frames.
    static func follow(_ faces: [[DetectedFace]], from anchor: Point) -> [DetectedFace?] {
        func distance(_ a: Point, _ b: Point) -> Float { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        var seed: (frame: Int, face: DetectedFace, distance: Float)?
        for (i, frame) in faces.enumerated() {
            for f in frame where f.landmarks.count >= 5 {
                let d = distance(f.box.center, anchor)
                if d < seed?.distance ?? .infinity { seed = (i, f, d) }
            }
        }
        var out = [DetectedFace?](repeating: nil, count: faces.count)
        guard let seed else { return out }
        out[seed.frame] = seed.face
        for order in [Array((seed.frame + 1)..<faces.count), Array((0..<seed.frame).reversed())] {
            var last = seed.face
            for i in order {
                let near = faces[i].filter { $0.landmarks.count >= 5 }.min { distance($0.box.center, last.box.center) < distance($1.box.center, last.box.center) }
                guard let near, distance(near.box.center, last.box.center) < sameFace * last.box.height else { continue }
                out[i] = near
                last = near
            }
        }
        return out
    }
}
