import Analysis
import Foundation
import Imaging

/// The embeddings one pass's faces borrow from the same face a moment earlier (see
/// `FaceTracker`), shared by the measuring threads.
///
/// Samples are planned in order, whichever thread measures them. A thread then publishes its
/// sample's own embeddings and asks to borrow for the others. A borrowing stands only if
/// `allows` accepts the source's embedding; a refused face is embedded by the thread that finds
/// out. A source still being embedded by another thread leaves the request pending, decided by
/// whichever thread publishes next (or at the end of the pass), so no thread waits for
/// another's embedding.
final class BorrowedEmbeddings: @unchecked Sendable {
    /// A face asking to borrow the embedding of face `source.face` of sample `source.sample`.
    struct Request {
        let sample: Int
        let face: Int
        let source: (sample: Int, face: Int)
        let likeness: Float
        /// Kept until the request is decided, in case the face must be embedded itself.
        let crop: RGBImage
    }

    /// A request that stood: no crop kept, a pass may grant thousands.
    private struct Granted {
        let sample: Int
        let face: Int
        let source: (sample: Int, face: Int)
        let likeness: Float
    }

    private let turn = NSCondition()
    private var tracker: FaceTracker
    private let allows: (Embedding) -> Bool
    private var planned = 0
    /// Samples planned but not yet settled.
    private var inFlight = Set<Int>()
    /// Samples' own embeddings, kept while a request may still name them.
    private var published: [Int: [Embedding?]] = [:]
    private var pending: [Request] = []
    private var granted: [Granted] = []
    /// Embeddings of faces whose request was refused, by sample and face.
    private var supplied: [Int: [Int: Embedding]] = [:]

    init(rules: FaceTracker.Rules, allows: @escaping (Embedding) -> Bool) {
        tracker = FaceTracker(rules: rules)
        self.allows = allows
    }

    /// Which faces of sample `n` may borrow, planned once sample `n - 1` has been (a thread
    /// waits here only while another finishes detecting the sample before).
    func plan(sample n: Int, time: Double, boxes: [Box], crops: [RGBImage]) -> [FaceTracker.Plan] {
        turn.lock()
        defer { turn.unlock() }
        while planned != n { turn.wait() }
        let plans = tracker.plan(sample: n, time: time, boxes: boxes, crops: crops)
        planned += 1
        inFlight.insert(n)
        turn.broadcast()
        return plans
    }

    /// Publishes sample `n`'s own embeddings (nil for faces that borrow) and hands in its
    /// requests. Returns the requests refused so far, this sample's or earlier ones whose
    /// source is now made: the caller embeds their faces and hands them in with `supply`.
    func settle(sample n: Int, made: [Embedding?], requests: [Request]) -> [Request] {
        turn.lock()
        defer { turn.unlock() }
        published[n] = made
        inFlight.remove(n)
        pending += requests
        let refused = decide()
        // A source is at most `maxBorrows` samples before its borrower: embeddings older than
        // that for every sample still to settle, and named by no pending request, are done with.
        let oldest = min(pending.map(\.source.sample).min() ?? .max, (inFlight.min() ?? planned) - tracker.rules.maxBorrows)
        published = published.filter { $0.key >= oldest }
        return refused
    }

    /// At the end of the pass every source is made: the requests still pending are decided.
    func finish() -> [Request] {
        turn.lock()
        defer { turn.unlock() }
        let refused = decide()
        precondition(pending.isEmpty, "every source is published by the end of a pass")
        return refused
    }

    func supply(_ request: Request, with embedding: Embedding) {
        turn.lock()
        supplied[request.sample, default: [:]][request.face] = embedding
        turn.unlock()
    }

    /// The pass's frames (in sample order) with every borrowed embedding filled in.
    func fill(_ frames: [ObservedFrame]) -> [ObservedFrame] {
        turn.lock()
        defer { turn.unlock() }
        var out = frames
        for (n, faces) in supplied {
            for (i, e) in faces { out[n].faces[i].embedding = e }
        }
        for g in granted {
            out[g.sample].faces[g.face].embedding = frames[g.source.sample].faces[g.source.face].embedding
            out[g.sample].faces[g.face].borrowedFrom = BorrowedEmbedding(
                framesBack: g.sample - g.source.sample, face: g.source.face, likeness: g.likeness)
        }
        return out
    }

    /// Decides every pending request whose source is published; returns the refused ones.
    /// Called with `turn` held.
    private func decide() -> [Request] {
        var refused: [Request] = []
        var still: [Request] = []
        for request in pending {
            guard let made = published[request.source.sample] else {
                still.append(request)
                continue
            }
            if let e = made[request.source.face], allows(e) {
                granted.append(Granted(sample: request.sample, face: request.face, source: request.source, likeness: request.likeness))
            } else {
                refused.append(request)
            }
        }
        pending = still
        return refused
    }
}
