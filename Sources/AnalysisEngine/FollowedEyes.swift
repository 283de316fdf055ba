import Analysis
import Faces
import GlimtCore
import Imaging
import MediaIO

/// The person's face in every frame of a film's second, for `film --align eyes` (`EyeAlignment`):
/// each frame the film will show is decoded again (the part of the picture around the pick's
/// crop, at `detectionSide`) and its faces found. The person is the face the pick was framed on:
/// of the faces seen in at least half as many frames as the most seen, the one nearest the crop's face position
/// (with references the crop was centred on the person, else on the most prominent face). From
/// there the face is followed backwards and forwards, each frame's face the one nearest where it
/// was last seen.
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
        let W = Float(reader.info.displayWidth), H = Float(reader.info.displayHeight)
        var detector = try Kernels.models().detector()
        detector.detectionSize = nil
        let first = try detect(
            reader, start: start, length: length, area: searchArea(crop, width: W, height: H), side: Float(detectionSide), detector: detector)
        var followed = follow(first.faces, from: anchor(crop))
        // Again where the face is, at the scale that makes it `detectionFace` pixels high.
        // (Not for a second where too few frames show it: it is not aligned anyway.)
        let boxes = followed.compactMap { $0?.box }
        if Float(boxes.count) >= EyeAlignment.minimumFound * Float(followed.count) {
            let face = boxes.map(\.height).sorted()[boxes.count / 2]
            let seen = first.scale * face / detectionFace
            if seen < 1 / detectionFaceRange || seen > detectionFaceRange {
                let x0 = max(0, boxes.map(\.x).min()! - face), y0 = max(0, boxes.map(\.y).min()! - face)
                let x1 = min(W, boxes.map(\.maxX).max()! + face), y1 = min(H, boxes.map(\.maxY).max()! + face)
                let near = Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                let again = try detect(
                    reader, start: start, length: length, area: near, side: max(near.width, near.height) * detectionFace / face,
                    detector: detector)
                let middle = boxes[boxes.count / 2].center
                followed = follow(again.faces, from: middle)
            }
        }
        return zip(first.times, followed).map { Frame(time: $0, landmarks: $1?.landmarks) }
    }

    /// The face in `photo` (upright) the pick's `crop` was framed on, its landmarks in the photo's
    /// pixels (nil: no face there): looked for around the crop, then again at `detectionFace`
    /// pixels high, as a video's second is.
    static func inPhoto(_ photo: RGBImage, crop: Box) throws -> [Point]? {
        let W = Float(photo.width), H = Float(photo.height)
        var detector = try Kernels.models().detector()
        detector.detectionSize = nil
        func faces(in a: Box, side: Float) -> [DetectedFace] {
            let s = min(side, 2 * Float(detectionSide)) / max(a.width, a.height)
            let w = max(32, Int((a.width * s).rounded())), h = max(32, Int((a.height * s).rounded()))
            return detector.detect(Resize.region(photo, a, width: w, height: h)).filter { $0.landmarks.count >= 5 }.map {
                placed($0, in: a, sx: a.width / Float(w), sy: a.height / Float(h))
            }
        }
        func nearest(_ found: [DetectedFace], _ p: Point) -> DetectedFace? {
            found.min { distance($0.box.center, p) < distance($1.box.center, p) }
        }
        guard let first = nearest(faces(in: searchArea(crop, width: W, height: H), side: Float(detectionSide)), anchor(crop)) else {
            return nil
        }
        let face = first.box.height
        let x0 = max(0, first.box.x - face), y0 = max(0, first.box.y - face)
        let near = Box(x: x0, y: y0, width: min(W, first.box.maxX + face) - x0, height: min(H, first.box.maxY + face) - y0)
        return (nearest(faces(in: near, side: max(near.width, near.height) * detectionFace / face), first.box.center) ?? first).landmarks
    }

    /// Where faces are looked for: the pick's crop grown by `searchGrowth` about its centre,
    /// inside a `W` x `H` picture.
    static func searchArea(_ crop: Box, width W: Float, height H: Float) -> Box {
        let c = crop.center
        let gw = min(W, crop.width * searchGrowth), gh = min(H, crop.height * searchGrowth)
        return Box(x: min(max(c.x - gw / 2, 0), W - gw), y: min(max(c.y - gh / 2, 0), H - gh), width: gw, height: gh)
    }

    /// Where the pick's framing put the face in its crop.
    static func anchor(_ crop: Box) -> Point { Point(crop.center.x, crop.y + Framing.faceHeightPosition * crop.height) }

    /// A face found in a picture of `area` (`sx`, `sy` picture pixels per detection pixel), in
    /// the picture's pixels.
    static func placed(_ d: DetectedFace, in area: Box, sx: Float, sy: Float) -> DetectedFace {
        DetectedFace(
            box: Box(x: area.x + d.box.x * sx, y: area.y + d.box.y * sy, width: d.box.width * sx, height: d.box.height * sy),
            landmarks: d.landmarks.map { Point(area.x + $0.x * sx, area.y + $0.y * sy) }, score: d.score)
    }

    static func distance(_ a: Point, _ b: Point) -> Float { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// YuNet's eye landmarks move with the size a face has in its input (a face 217 pixels high
    /// has its eyes 74 apart; four times enlarged, 55/4 times that): the person's face is looked
    /// for again at this height, within `detectionFaceRange` times either way of it.
    static let detectionFace: Float = 160
    static let detectionFaceRange: Float = 1.5

    /// Faces in each frame of `area` (upright pixels) seen at `side` pixels on its long side, in
    /// the video's upright pixels; `scale`: detection pixels per picture pixel.
    private static func detect(
        _ reader: VideoReader, start: Double, length: Double, area a: Box, side: Float, detector: any FaceDetecting
    ) throws -> (times: [Double], faces: [[DetectedFace]], scale: Float) {
        let area = Box(
            x: a.x.rounded(.down), y: a.y.rounded(.down), width: max(1, a.width.rounded(.down)), height: max(1, a.height.rounded(.down)))
        let scale = min(side, 2 * Float(detectionSide)) / max(area.width, area.height)
        var times: [Double] = []
        var faces: [[DetectedFace]] = []
        try eachFrame(reader, start: start, length: length, area: area, scale: scale) { _, time, screened in
            let picture = screened()
            let sx = area.width / Float(picture.width), sy = area.height / Float(picture.height)
            times.append(time)
            faces.append(detector.detect(picture).map { placed($0, in: area, sx: sx, sy: sy) })
        }
        return (times, faces, scale)
    }

    /// Each frame shown from `start` for `length` seconds (its index in that order, its time),
    /// decoded as the part `area` of the upright picture (whole pixels, inside it) at `scale`
    /// decoded pixels per picture pixel; the picture as the screen shows it is made when asked
    /// for (an HDR frame is tone-mapped then).
    static func eachFrame(
        _ reader: VideoReader, start: Double, length: Double, area: Box, scale: Float, _ body: (Int, Double, () -> RGBImage) throws -> Void
    ) throws {
        let region = FrameRegion(
            crop: area, width: max(32, Int((area.width * scale).rounded())), height: max(32, Int((area.height * scale).rounded())))
        let screen = ScreenPicture(reader.info)
        let frames = try reader.frames(from: start, to: start + length, depth: screen.depth, region: region)
        var i = 0
        while let f = try frames.next() {
            try body(i, f.time, { screen.image(f.picture) })
            i += 1
        }
    }

    /// Per frame, the face followed from the one nearest `anchor` of those seen often in the second.
    static func follow(_ faces: [[DetectedFace]], from anchor: Point) -> [DetectedFace?] {
        func same(_ a: DetectedFace, _ b: DetectedFace) -> Bool {
            let size = b.box.height / a.box.height
            return distance(a.box.center, b.box.center) < sameFace * a.box.height && size > 0.7 && size < 1.4
        }
        // Of the faces seen in at least half as many frames as the most seen one (not a one-frame
        // false find that happens to lie nearer), the one nearest the anchor.
        let all = faces.enumerated().flatMap { i, frame in frame.filter { $0.landmarks.count >= 5 }.map { (frame: i, face: $0) } }
        let seen = all.map { c in faces.filter { $0.contains { same(c.face, $0) } }.count }
        let most = seen.max() ?? 0
        let seed = all.indices.filter { 2 * seen[$0] >= most }.map { all[$0] }.min {
            distance($0.face.box.center, anchor) < distance($1.face.box.center, anchor)
        }
        var out = [DetectedFace?](repeating: nil, count: faces.count)
        guard let seed else { return out }
        out[seed.frame] = seed.face
        for order in [Array((seed.frame + 1)..<faces.count), Array((0..<seed.frame).reversed())] {
            var last = seed.face
            for i in order {
                let near = faces[i].filter { $0.landmarks.count >= 5 && same(last, $0) }.min {
                    distance($0.box.center, last.box.center) < distance($1.box.center, last.box.center)
                }
                guard let near else { continue }
                out[i] = near
                last = near
            }
        }
        return out
    }
}
