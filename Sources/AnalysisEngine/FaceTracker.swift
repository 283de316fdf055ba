import Analysis
import Imaging

/// Which faces of a sampled frame need an embedding of their own, and which may borrow the one
/// measured a moment earlier for the same face.
///
/// Embedding is most of the work per face (SFace: 1.15 GFLOP; detecting and aligning a face
/// cost a fraction of it), and at 8 samples a second a face barely changes from one sample to
/// the next. A face in a sample continues a track when it overlaps a face of the previous sample
/// (one to one, largest overlap first) and its aligned crop still looks like the crop whose
/// embedding the track holds; it may then borrow that embedding, at most `maxBorrows` samples in
/// a row (video analysis lets it borrow only embeddings whose verdict a small change could not flip, and
/// embeds the face itself otherwise). A new face, a face that moved or turned away from what
/// was measured, or one after a gap between samples (a cut between stretches) is measured.
///
/// Plans depend only on the frames' order and contents, never on timing or threads, so a video
/// is analysed the same way every run.
public struct FaceTracker: Sendable {
    public struct Rules: Sendable, Equatable {
        /// Samples in a row that may borrow one measured embedding (5: a face is embedded at
        /// least every sixth sample, about every 3/4 s at 8 samples a second).
        public var maxBorrows = 5
        /// Overlap (intersection over union) with the face in the previous sample.
        public var minOverlap: Float = 0.3
        /// Correlation of the aligned crops' coarse grey pictures with the measured crop's: a
        /// guard against a cut to another face in the same place, not a face recogniser. On the
        /// test and sample clips, 93 % of pairs of different faces in one frame stay below it, a
        /// face and itself up to three samples later 98 % above it (a talking head's mouth and
        /// nods keep it between 0.78 and 0.99).
        public var minLikeness: Float = 0.75
        /// Samples further apart than this (seconds) start afresh.
        public var maxGap: Double

        public init(maxGap: Double) { self.maxGap = maxGap }
    }

    /// For one face: embed it, or borrow the embedding of face `face` of sample `sample`, whose
    /// crop it resembles at `likeness`.
    public enum Plan: Equatable, Sendable {
        case measure
        case borrow(sample: Int, face: Int, likeness: Float)
    }

    struct Track {
        var box: Box
        var sample: Int
        var face: Int
        var look: Look
        var borrows: Int
    }

    public let rules: Rules
    private var previous: [Track] = []
    private var previousTime: Double?

    public init(rules: Rules) { self.rules = rules }

    /// Plans sample number `sample` (taken at `time`; samples come in order) from its faces'
    /// boxes and aligned crops, in detector order.
    public mutating func plan(sample: Int, time: Double, boxes: [Box], crops: [RGBImage]) -> [Plan] {
        precondition(boxes.count == crops.count, "one crop per box")
        let carried = previousTime.map { time - $0 <= rules.maxGap } ?? false
        var continues = [Int?](repeating: nil, count: boxes.count)
        if carried {
            var pairs: [(overlap: Float, face: Int, track: Int)] = []
            for (i, b) in boxes.enumerated() {
                for (t, track) in previous.enumerated() {
                    let o = b.intersectionOverUnion(track.box)
                    if o >= rules.minOverlap { pairs.append((o, i, t)) }
                }
            }
            // Largest overlap first; ties by face then track, so plans never depend on sort order.
            pairs.sort { ($0.overlap, $1.face, $1.track) > ($1.overlap, $0.face, $0.track) }
            var trackTaken = Set<Int>()
            for p in pairs where continues[p.face] == nil && !trackTaken.contains(p.track) {
                continues[p.face] = p.track
                trackTaken.insert(p.track)
            }
        }
        var plans: [Plan] = []
        var tracks: [Track] = []
        for (i, box) in boxes.enumerated() {
            let look = Look(crops[i])
            if let t = continues[i], previous[t].borrows < rules.maxBorrows, case let likeness = look.likeness(previous[t].look),
                likeness >= rules.minLikeness
            {
                var track = previous[t]
                track.box = box
                track.borrows += 1
                plans.append(.borrow(sample: track.sample, face: track.face, likeness: likeness))
                tracks.append(track)
            } else {
                plans.append(.measure)
                tracks.append(Track(box: box, sample: sample, face: i, look: look, borrows: 0))
            }
        }
        previous = tracks
        previousTime = time
        return plans
    }

    /// An aligned crop's coarse grey picture (14 x 14 means of 8 x 8 blocks), zero-mean and of
    /// unit length: two looks' dot product is their correlation, near 1 for the same face a
    /// moment later and lower for another face or the same one turned away.
    struct Look: Sendable {
        static let cells = 14
        var values: [Float]

        init(_ crop: RGBImage) {
            let n = Self.cells, cw = max(1, crop.width / n), ch = max(1, crop.height / n)
            let grey = Grey.luma(crop)
            var v = [Float](repeating: 0, count: n * n)
            for cy in 0..<n {
                for cx in 0..<n {
                    var sum: Float = 0
                    for y in cy * ch..<min(crop.height, (cy + 1) * ch) {
                        for x in cx * cw..<min(crop.width, (cx + 1) * cw) { sum += grey[y * crop.width + x] }
                    }
                    v[cy * n + cx] = sum
                }
            }
            let mean = v.reduce(0, +) / Float(v.count)
            for i in v.indices { v[i] -= mean }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            // A flat crop has no shape to compare: it is like nothing.
            values = norm > 0 ? v.map { $0 / norm } : v
        }

        func likeness(_ o: Look) -> Float { zip(values, o.values).reduce(0) { $0 + $1.0 * $1.1 } }
    }
}
