import Analysis
import Faces
import Foundation
import GlimtCore
import Imaging
import MediaIO

/// `film --align eyes` planned from the video (`FollowedEyes`, `EyeAlignment`), then checked in
/// the film's own pictures: a few of the second's frames are cut as the film will cut them, at the
/// film's size, the eyes found there again and the second's crops corrected by what they show
/// (`EyeAlignment.corrected`).
///
/// Why: YuNet's eyes move with the size a face has in its input, by a different amount for each
/// face (a turned head most). Planned in the video's pixels, one day's eyes came out a tenth
/// further apart than another's when the film itself was looked at; looked at in the film, where
/// every day's face has the same size, the days agree.
public enum ShownEyes {
    /// Frames of a second looked at in the film's pictures, spread evenly over it.
    static let checkedFrames = 5
    /// The part of a film frame looked at: this many eye distances each side of the eye point
    /// (the whole face with room around it, at a third of the film's pixels or less).
    static let reach: Float = 2.5

    /// The crops of a video's second: `length` seconds of `path` from `start`, framed by the pick
    /// as `crop`; `shown` maps the decoded frames' times to the picture each film frame shows
    /// (`FilmSegment.shownPictures`).
    public static func video(
        path: String, start: Double, length: Double, crop: Box, width: Int, height: Int, shown: ([Double]) -> [Int]
    ) throws -> EyeAlignment.Outcome {
        let found = try FollowedEyes.find(path: path, start: start, length: length, crop: crop)
        let pictures = shown(found.map(\.time))
        let planned = EyeAlignment.crops(pictures.map { found[$0].landmarks }, width: width, height: height)
        guard case .aligned(let crops, let limited) = planned, !crops.isEmpty else { return planned }
        let film = Film(width: width, height: height)
        let frames = checked(crops.count)
        // The checked frames' part of the video (room around it for the corrections), no finer
        // than the finest of them needs and never finer than the video itself.
        let reader = try VideoReader(path: path)
        let W = Float(reader.info.displayWidth), H = Float(reader.info.displayHeight)
        let whole = Box(x: 0, y: 0, width: W, height: H)
        let parts = frames.compactMap { film.window(crops[$0], inside: whole) }
        guard !parts.isEmpty else { return planned }
        let x0 = parts.map(\.source.x).min()!, y0 = parts.map(\.source.y).min()!
        let x1 = parts.map(\.source.maxX).max()!, y1 = parts.map(\.source.maxY).max()!
        let gx = (x1 - x0) * (roomAround - 1) / 2, gy = (y1 - y0) * (roomAround - 1) / 2
        let left = max(0, (x0 - gx).rounded(.down)), top = max(0, (y0 - gy).rounded(.down))
        let area = Box(x: left, y: top, width: min(W, (x1 + gx).rounded(.up)) - left, height: min(H, (y1 + gy).rounded(.up)) - top)
        let finest = min(1, parts.map { $0.film.width / $0.source.width }.max()!)
        let wanted = Dictionary(grouping: frames, by: { pictures[$0] })
        var looks: [Look] = []
        try FollowedEyes.eachFrame(reader, start: start, length: length, area: area, scale: finest) { i, _, screened in
            guard let uses = wanted[i] else { return }
            let picture = screened()
            looks += uses.map { Look(frame: $0, picture: picture, area: area) }
        }
        return .aligned(crops: try settled(crops, looks, film: film), limited: limited)
    }

    /// The crops of a photo's second of `frames` frames, framed by the pick as `crop`: the photo
    /// is held still, so one look at it stands for every frame.
    public static func photo(path: String, crop: Box, frames: Int, width: Int, height: Int) throws -> EyeAlignment.Outcome {
        let photo = try ImageDecoder.decode(path: path)
        let face = try FollowedEyes.inPhoto(photo, crop: crop)
        let planned = EyeAlignment.crops(Array(repeating: face, count: frames), width: width, height: height)
        guard case .aligned(let crops, let limited) = planned, !crops.isEmpty else { return planned }
        let look = Look(frame: 0, picture: photo, area: Box(x: 0, y: 0, width: Float(photo.width), height: Float(photo.height)))
        return .aligned(crops: try settled(crops, [look], film: Film(width: width, height: height)), limited: limited)
    }

    /// A checked frame of the second: `picture` shows `area` of the video's (or photo's) picture.
    struct Look {
        let frame: Int
        let picture: RGBImage
        let area: Box
    }

    /// The sizes, besides the film's own, the eyes in a film frame are also looked at: half, and
    /// with the face 110, 160 and 240 pixels high (shrink factors of the film's pixels, for a
    /// face `faceHeight` film pixels high). YuNet's eye distance jumps by up to a tenth between
    /// nearby sizes of one face, differently for each face (its landmarks are placed from a
    /// coarse grid); on average over these sizes it agrees with a finer landmark model's
    /// (MediaPipe's eye corners) within a few hundredths, on every face tried.
    static func scales(faceHeight: Float) -> [Float] {
        [0.5] + [110, 160, 240].map { $0 / max(faceHeight, 1) }
    }

    /// Rounds of looking and correcting at most: YuNet's eye distance does not grow quite in
    /// step with the face, so one correction leaves a few hundredths.
    static let rounds = 3
    /// The decoded part of a video is this much larger than the checked frames' parts, for the
    /// parts of corrected crops.
    static let roomAround: Float = 1.3

    /// `crops` corrected by what their frames `looks` show, until the correction is small: each
    /// round's scale from the last two rounds' (a secant, where the last step went past the
    /// size), else from the last alone. The crops of the round that showed the eyes closest to
    /// their size are kept.
    static func settled(_ crops: [Box], _ looks: [Look], film: Film) throws -> [Box] {
        var detector = try Kernels.models().detector()
        detector.detectionSize = nil
        // Each round: the crops' scale from the plan, and the correction their frames asked for.
        var rounds: [(crops: [Box], scale: Float, asked: EyeAlignment.Correction)] = []
        var current = crops, scale: Float = 1
        for _ in 0..<Self.rounds {
            let seen = looks.compactMap { look -> EyeAlignment.Seen? in
                guard let part = film.window(current[look.frame], inside: look.area) else { return nil }
                let sx = Float(look.picture.width) / look.area.width, sy = Float(look.picture.height) / look.area.height
                let s = part.source
                let inPicture = Box(x: (s.x - look.area.x) * sx, y: (s.y - look.area.y) * sy, width: s.width * sx, height: s.height * sy)
                let eyes = film.eyes(detector, in: Resize.region(look.picture, inPicture, width: part.width, height: part.height), at: part)
                return eyes.map { EyeAlignment.Seen(frame: look.frame, right: $0.right, left: $0.left) }
            }
            guard let asked = EyeAlignment.correction(seen: seen, looked: looks.count, width: film.width, height: film.height) else { break }
            rounds.append((current, scale, asked))
            if asked.isSmall(height: film.height) { break }
            var step = asked
            if rounds.count >= 2 {
                let a = rounds[rounds.count - 2], b = rounds[rounds.count - 1]
                if (a.asked.scale - 1) * (b.asked.scale - 1) < 0, a.asked.scale != b.asked.scale {
                    let wanted = a.scale + (1 - a.asked.scale) * (b.scale - a.scale) / (b.asked.scale - a.asked.scale)
                    step.scale = wanted / b.scale
                }
            }
            current = EyeAlignment.corrected(current, by: step, width: film.width, height: film.height)
            scale *= step.scale
        }
        return rounds.min { abs($0.asked.scale - 1) < abs($1.asked.scale - 1) }?.crops ?? crops
    }

    /// `checkedFrames` of `count` frames, evenly spread and centred in their stretches.
    static func checked(_ count: Int) -> [Int] {
        let n = min(count, checkedFrames)
        return (0..<n).map { min(count - 1, (2 * $0 + 1) * count / (2 * n)) }
    }

    /// The film's frame, `width` x `height`.
    struct Film {
        let width: Int
        let height: Int

        /// The part of a film frame cut with `crop` that is looked at: `reach` eye distances about
        /// the eye point, inside the frame and inside `shown`, the part of the picture at hand (the
        /// film's washed-out colours past the picture are no face). `film`: where it lies in the film frame, in film pixels;
        /// `source`: the same part of the picture, in its pixels.
        struct Part {
            let film: Box
            let source: Box
            var width: Int { Int(film.width.rounded()) }
            var height: Int { Int(film.height.rounded()) }
        }

        func window(_ crop: Box, inside shown: Box) -> Part? {
            let fw = Float(width), fh = Float(height)
            let a = ShownEyes.reach * EyeAlignment.eyeDistance * fh
            let ex = EyeAlignment.eyePoint.x * fw, ey = EyeAlignment.eyePoint.y * fh
            // `shown`'s edges in film pixels.
            let sx = fw / crop.width, sy = fh / crop.height
            let x0 = max(0, ex - a, (shown.x - crop.x) * sx), y0 = max(0, ey - a, (shown.y - crop.y) * sy)
            let x1 = min(fw, ex + a, (shown.maxX - crop.x) * sx), y1 = min(fh, ey + a, (shown.maxY - crop.y) * sy)
            guard x1 - x0 >= 32, y1 - y0 >= 32 else { return nil }
            let film = Box(x: x0.rounded(), y: y0.rounded(), width: (x1 - x0).rounded(), height: (y1 - y0).rounded())
            let source = Box(
                x: crop.x + film.x / sx, y: crop.y + film.y / sy, width: film.width / sx, height: film.height / sy)
            return Part(film: film, source: source)
        }

        /// The eyes of the face nearest the eye point in `picture` (the film's pixels of `part`),
        /// in film pixels: where YuNet finds them in the picture as it is, as far apart as it
        /// finds them on average (geometric) at `scales`.
        func eyes(_ detector: any FaceDetecting, in picture: RGBImage, at part: Part) -> (right: Point, left: Point)? {
            let target = Point(EyeAlignment.eyePoint.x * Float(width) - part.film.x, EyeAlignment.eyePoint.y * Float(height) - part.film.y)
            /// The eyes of the face nearest the eye point in `picture` shrunk by `s`, in its pixels.
            func nearest(_ s: Float) -> (Point, Point, box: Float)? {
                var p = picture
                if s != 1 {
                    p = Resize.resize(
                        picture, width: max(32, Int((Float(picture.width) * s).rounded())),
                        height: max(32, Int((Float(picture.height) * s).rounded())))
                }
                let sx = Float(p.width) / Float(picture.width), sy = Float(p.height) / Float(picture.height)
                let face = detector.detect(p).filter { $0.landmarks.count >= 5 }.map {
                    FollowedEyes.placed($0, in: .init(x: 0, y: 0, width: Float(picture.width), height: Float(picture.height)), sx: 1 / sx, sy: 1 / sy)
                }.min {
                    FollowedEyes.distance(middle($0), target) < FollowedEyes.distance(middle($1), target)
                }
                return face.map { ($0.landmarks[0], $0.landmarks[1], $0.box.height) }
            }
            guard let found = nearest(1) else { return nil }
            let (r, l) = (found.0, found.1)
            var logs = [log(FollowedEyes.distance(r, l))]
            for s in ShownEyes.scales(faceHeight: found.box) {
                if let f = nearest(s) { logs.append(log(FollowedEyes.distance(f.0, f.1))) }
            }
            // The eyes about their midpoint, as far apart as the average says.
            let k = exp(logs.reduce(0, +) / Float(logs.count)) / FollowedEyes.distance(r, l) / 2
            let m = Point((r.x + l.x) / 2 + part.film.x, (r.y + l.y) / 2 + part.film.y)
            let half = Point((r.x - l.x) * k, (r.y - l.y) * k)
            return (Point(m.x + half.x, m.y + half.y), Point(m.x - half.x, m.y - half.y))
        }

        private func middle(_ f: DetectedFace) -> Point {
            Point((f.landmarks[0].x + f.landmarks[1].x) / 2, (f.landmarks[0].y + f.landmarks[1].y) / 2)
        }
    }
}
