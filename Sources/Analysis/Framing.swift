import Imaging

/// Where to crop the chosen second for the film's aspect ratio: one steady rectangle per clip.
///
/// Each frame names its subject (the person with references, else the most prominent face:
/// size x quality, which is steadier than "the clearest"). The crop centres on the biggest group
/// of those positions lying close together, never on their mean: with two people alternating,
/// the mean lands on the wall between them. When the face is small the crop zooms in until the
/// face is about a fifth of the crop's height, at most 1.6x. The whole head stays in the crop
/// when the frame allows it.
public enum Framing {
    public static let targetFaceFraction: Float = 0.2
    public static let maxZoom: Float = 1.6
    /// The face's centre sits this far down the crop (a little above the middle, where eyes
    /// usually are in a well-framed shot).
    public static let faceHeightPosition: Float = 0.42
    /// From the face box's centre up to the top of the head, in face heights: the detector's box
    /// ends at the forehead, and hair and crown rise above it (0.66 on the sample's close-up of
    /// 6 May; a child's hair can stand higher).
    public static let headAbove: Float = 0.75
    /// From the face box's centre down to the chin: the box's bottom.
    public static let chinBelow: Float = 0.5
    /// Room left above the head when the frame has it, as a share of the crop's height.
    public static let headroom: Float = 0.03

    public struct Subject: Equatable, Sendable {
        public var center: Point
        public var faceHeight: Float
        public var weight: Float

        public init(center: Point, faceHeight: Float, weight: Float = 1) {
            self.center = center
            self.faceHeight = faceHeight
            self.weight = weight
        }
    }

    public struct Crop: Codable, Equatable, Sendable {
        public var box: Box
        public var zoom: Float
        /// Positions the crop was centred on, out of all frames that had a subject.
        public var clusterSize: Int
        public var subjects: Int
    }

    /// Output aspect ratio as width / height (portrait 9:16 = 0.5625).
    public static func crop(subjects: [Subject], frameWidth w: Int, frameHeight h: Int, aspect: Float) -> Crop {
        let W = Float(w), H = Float(h)
        // The largest rectangle of the aspect ratio that fits the frame: zoom 1.
        var baseH = H, baseW = H * aspect
        if baseW > W { baseW = W; baseH = W / aspect }
        guard let cluster = biggestCluster(subjects, frameHeight: H) else {
            return Crop(box: Box(x: (W - baseW) / 2, y: (H - baseH) / 2, width: baseW, height: baseH), zoom: 1, clusterSize: 0, subjects: 0)
        }
        let total = cluster.reduce(0) { $0 + $1.weight }
        let cx = cluster.reduce(0) { $0 + $1.center.x * $1.weight } / total
        let cy = cluster.reduce(0) { $0 + $1.center.y * $1.weight } / total
        let faceH = median(cluster.map(\.faceHeight))
        let fraction = faceH / baseH
        let zoom = fraction > 0 && fraction < targetFaceFraction ? min(maxZoom, targetFaceFraction / fraction) : 1
        let ch = baseH / zoom, cw = baseW / zoom
        let x = min(max(cx - cw / 2, 0), W - cw)
        // A big face centred at `faceHeightPosition` would lose the top of its head: the crop
        // rises to keep the head whole, as far as the chin stays in and the frame goes.
        var y = cy - ch * faceHeightPosition
        let headTop = cy - headAbove * faceH - headroom * ch
        if y > headTop { y = max(headTop, cy + chinBelow * faceH - ch) }
        y = min(max(y, 0), H - ch)
        return Crop(box: Box(x: x, y: y, width: cw, height: ch), zoom: zoom, clusterSize: cluster.count, subjects: subjects.count)
    }

    /// The largest set of positions within a radius of one of them (ties: the heavier set, then
    /// the earlier frame). The radius is the larger of a tenth of the frame's height and three
    /// quarters of the typical face height: "the same place" for a person who moves a little.
    static func biggestCluster(_ s: [Subject], frameHeight: Float) -> [Subject]? {
        guard !s.isEmpty else { return nil }
        let radius = max(0.1 * frameHeight, 0.75 * median(s.map(\.faceHeight)))
        var best: [Subject] = []
        var bestWeight: Float = -1
        for a in s {
            let members = s.filter { b in
                let dx = a.center.x - b.center.x, dy = a.center.y - b.center.y
                return (dx * dx + dy * dy).squareRoot() <= radius
            }
            let weight = members.reduce(0) { $0 + $1.weight }
            if members.count > best.count || (members.count == best.count && weight > bestWeight) {
                best = members
                bestWeight = weight
            }
        }
        return best
    }

    static func median(_ v: [Float]) -> Float {
        let s = v.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
