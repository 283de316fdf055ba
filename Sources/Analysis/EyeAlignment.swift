import Imaging

/// `film --align eyes`: from the person's face in each frame of a second to one crop per frame
/// that puts the midpoint between the eyes at `eyePoint` and makes the eyes `eyeDistance` of the
/// film's height apart, the same in every second of every day.
///
/// - Jitter: each frame's eye midpoint and face size first lose single-frame outliers (a median
///   of `outlierFrames`), then are averaged over `positionFrames` (midpoint) and `sizeFrames`
///   (size: about the whole second, since YuNet's eye distance of a face that does not change
///   jumps by a tenth between neighbouring frames, more than a face's size changes in a second).
/// - Turns: the face's size is the larger of the eye distance and the eye-to-mouth distance times
///   the second's own median ratio of the two (and `turned`). A head turning sideways narrows the
///   eyes but not the eye-to-mouth line, and a nod the other way round, so neither zooms in.
/// - Frames without the face take the values of the frames around them (straight lines between,
///   held at the ends); a second where fewer than `minimumFound` of the frames show the face is
///   not aligned (the caller keeps its ordinary crop and says so).
/// - The crop keeps the eyes in place even past the picture's edges (the film shows the second's
///   colours there, washed out: see the Film module's `MovingCrop`),
///   but never enlarges the picture more than `maxEnlargement`: a smaller face is shown smaller.
public enum EyeAlignment {
    /// Where the midpoint between the eyes sits, as shares of the film's width and height: a
    /// little above the middle, as in a portrait, with room for the head.
    public static let eyePoint = Point(0.5, 0.4)
    /// Eyes this far apart as a share of the film's height: the face about a fifth of the height,
    /// as `Framing` frames it.
    public static let eyeDistance: Float = 0.09
    /// Share of a second's frames that must show the face for the second to be aligned.
    public static let minimumFound: Float = 0.5
    public static let outlierFrames = 5
    public static let positionFrames = 5
    public static let sizeFrames = 31
    /// The eye-to-mouth line stands in for the eye distance only where the eyes look narrower
    /// than it by more than this share allows (a turned head, which so zooms in by a tenth at
    /// most): in a face seen from the front the two measures' noise would otherwise push the
    /// size up.
    static let turned: Float = 0.9
    /// The most the film enlarges the picture: more, and a small face turns to mush. The steady
    /// framing goes 2.7x for a 720p clip in a 1080x1920 film, then `Framing.maxZoom`; at 4x the
    /// sample's 320-pixel clip and 720-pixel photos already fell short of the eye distance there.
    public static let maxEnlargement: Float = 6

    /// The five landmarks of one frame's face (right eye, left eye, nose tip, mouth corners, as
    /// `DetectedFace` has them), in the picture's pixels.
    public typealias Landmarks = [Point]

    public enum Outcome: Equatable, Sendable {
        /// One crop per frame; `limited`: in some frames the face was too small to show at the
        /// film's eye size without enlarging more than `maxEnlargement`.
        case aligned(crops: [Box], limited: Bool)
        /// Too few frames show the face.
        case tooFewEyes(found: Int, frames: Int)
    }

    /// The crops for a second whose frame `k` shows `faces[k]` (nil: not found), for a film of
    /// `width` x `height`.
    public static func crops(_ faces: [Landmarks?], width: Int, height: Int) -> Outcome {
        let found = faces.indices.filter { faces[$0].map { $0.count >= 5 && $0.allSatisfy(\.isFinite) } ?? false }
        guard !faces.isEmpty, Float(found.count) >= minimumFound * Float(faces.count) else {
            return .tooFewEyes(found: found.count, frames: faces.count)
        }
        func mid(_ a: Point, _ b: Point) -> Point { Point((a.x + b.x) / 2, (a.y + b.y) / 2) }
        let eyes = found.map { mid(faces[$0]![0], faces[$0]![1]) }
        let across = found.map { dist(faces[$0]![0], faces[$0]![1]) }
        let down = found.indices.map { dist(eyes[$0], mid(faces[found[$0]]![3], faces[found[$0]]![4])) }
        let ratios = found.indices.compactMap { down[$0] > 0 ? across[$0] / down[$0] : nil }
        let ratio = ratios.isEmpty ? 0 : median(ratios)
        let sizes = found.indices.map { max(across[$0], turned * ratio * down[$0]) }

        let n = faces.count
        let x = smoothed(filled(found, eyes.map(\.x), count: n), over: positionFrames)
        let y = smoothed(filled(found, eyes.map(\.y), count: n), over: positionFrames)
        let size = smoothed(filled(found, sizes, count: n), over: sizeFrames)
        let aspect = Float(width) / Float(height)
        let smallest = Float(height) / maxEnlargement
        var limited = false
        let crops = (0..<n).map { k -> Box in
            var ch = size[k] / eyeDistance
            if ch < smallest {
                ch = smallest
                limited = true
            }
            let cw = ch * aspect
            return Box(x: x[k] - eyePoint.x * cw, y: y[k] - eyePoint.y * ch, width: cw, height: ch)
        }
        return .aligned(crops: crops, limited: limited)
    }

    /// The followed face's eyes as a film frame shows them, in the film's pixels.
    public struct Seen: Equatable, Sendable {
        public var frame: Int
        public var right: Point
        public var left: Point
        public init(frame: Int, right: Point, left: Point) {
            self.frame = frame
            self.right = right
            self.left = left
        }
    }

    /// A correction larger than this either way is not trusted: the film's frames showed another
    /// face, or none well.
    static let largestCorrection: Float = 1.25

    /// How far a second's crops are off, as its film frames show the eyes: `scale` times the film's
    /// eye distance apart, the midpoint `dx`, `dy` film pixels from `eyePoint`.
    public struct Correction: Equatable, Sendable {
        public var scale: Float
        public var dx: Float
        public var dy: Float

        public init(scale: Float, dx: Float, dy: Float) {
            self.scale = scale
            self.dx = dx
            self.dy = dy
        }

        /// Off by less than a hundredth of the eye distance and the film's height: nothing to do.
        public func isSmall(height: Int) -> Bool {
            abs(scale - 1) < 0.01 && abs(dx) < 0.01 * Float(height) && abs(dy) < 0.01 * Float(height)
        }
    }

    /// The correction the eyes `seen` in a second's film frames ask for: the median of what the
    /// frames show (one frame's eyes jitter more than the second's plan is off). Nil when fewer
    /// than half the `looked` frames showed the eyes, or it is past `largestCorrection`.
    public static func correction(seen: [Seen], looked: Int, width: Int, height: Int) -> Correction? {
        guard !seen.isEmpty, 2 * seen.count >= looked else { return nil }
        let W = Float(width), H = Float(height)
        let c = Correction(
            scale: median(seen.map { dist($0.right, $0.left) }) / (eyeDistance * H),
            dx: median(seen.map { ($0.right.x + $0.left.x) / 2 - eyePoint.x * W }),
            dy: median(seen.map { ($0.right.y + $0.left.y) / 2 - eyePoint.y * H }))
        guard c.scale.isFinite, c.scale <= largestCorrection, c.scale >= 1 / largestCorrection,
            abs(c.dx) < (largestCorrection - 1) * W, abs(c.dy) < (largestCorrection - 1) * H
        else { return nil }
        return c
    }

    /// `crops` moved and resized by `c`, so the eyes come to `eyePoint`, `eyeDistance` apart. The
    /// enlargement stays within `maxEnlargement` (a crop already at that limit is not made smaller).
    public static func corrected(_ crops: [Box], by c: Correction, width: Int, height: Int) -> [Box] {
        let W = Float(width), H = Float(height)
        let smallest = H / maxEnlargement
        return crops.map { b in
            // Where the frame shows the eyes, in the picture's pixels, and the crop that puts them in place.
            let ex = b.x + (eyePoint.x * W + c.dx) * b.width / W, ey = b.y + (eyePoint.y * H + c.dy) * b.height / H
            let ch = max(b.height * c.scale, min(b.height, smallest)), cw = ch * b.width / b.height
            return Box(x: ex - eyePoint.x * cw, y: ey - eyePoint.y * ch, width: cw, height: ch)
        }
    }

    static func dist(_ a: Point, _ b: Point) -> Float { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// `values` of the frames `at` (ascending), spread over `count` frames: straight lines
    /// between them, the first and last held to the ends; single-frame outliers replaced by the
    /// median of `outlierFrames` around them first.
    static func filled(_ at: [Int], _ values: [Float], count: Int) -> [Float] {
        let half = outlierFrames / 2
        let steady = values.indices.map { i in median(Array(values[max(0, i - half)...min(values.count - 1, i + half)])) }
        var out = [Float](repeating: steady[0], count: count)
        for (j, k) in at.enumerated() {
            out[k] = steady[j]
            if j + 1 < at.count {
                let next = at[j + 1]
                for m in (k + 1)..<max(k + 1, next) { out[m] = steady[j] + (steady[j + 1] - steady[j]) * Float(m - k) / Float(next - k) }
            } else {
                for m in k..<count { out[m] = steady[j] }
            }
        }
        return out
    }

    /// Centred moving average over `frames`, cut short at the ends of the second.
    static func smoothed(_ v: [Float], over frames: Int) -> [Float] {
        let half = frames / 2
        return v.indices.map { i in
            let window = v[max(0, i - half)...min(v.count - 1, i + half)]
            return window.reduce(0, +) / Float(window.count)
        }
    }

    static func median(_ v: [Float]) -> Float {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
