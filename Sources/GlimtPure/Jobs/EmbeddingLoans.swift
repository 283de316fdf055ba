import Foundation
import Faces
import Imaging
import Library

/// The embeddings one pass's faces borrow from the same face a moment earlier (see
/// `FaceTracker`), shared by the measuring threads.
///
/// Samples are planned in order, whichever thread measures them. A thread then publishes its
/// sample's own embeddings and asks for its loans. A loan stands only if `lends` accepts the
/// lender's embedding; a refused face is embedded by the thread that finds out. A lender still
/// being embedded by another thread leaves the loan pending, decided by whichever thread
/// publishes next (or at the end of the pass), so no thread waits for another's embedding.
final class EmbeddingLoans: @unchecked Sendable {
    struct Loan {
        let sample: Int
        let face: Int
        let lender: (sample: Int, face: Int)
        /// Kept until the loan is decided, in case the face must be embedded itself.
        let crop: RGBImage
    }

    /// A loan that stood: no crop kept, a pass may grant thousands.
    private struct Granted {
        let sample: Int
        let face: Int
        let lender: (sample: Int, face: Int)
    }

    private let turn = NSCondition()
    private var tracker: FaceTracker
    private let lends: (Embedding) -> Bool
    private var planned = 0
    /// Samples planned but not yet settled.
    private var inFlight = Set<Int>()
    /// Samples' own embeddings, kept while a loan may still name them.
    private var published: [Int: [Embedding?]] = [:]
    private var pending: [Loan] = []
    private var granted: [Granted] = []
    /// Embeddings of faces whose loan was refused, by sample and face.
    private var repaid: [Int: [Int: Embedding]] = [:]

    init(rules: FaceTracker.Rules, lends: @escaping (Embedding) -> Bool) {
        tracker = FaceTracker(rules: rules)
        self.lends = lends
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

    /// Publishes sample `n`'s own embeddings (nil for faces that borrow) and asks for its
    /// loans. Returns the loans refused so far, this sample's or earlier ones whose lender is
    /// now made: the caller embeds their faces and hands them in with `repay`.
    func settle(sample n: Int, made: [Embedding?], loans: [Loan]) -> [Loan] {
        turn.lock()
        defer { turn.unlock() }
        published[n] = made
        inFlight.remove(n)
        pending += loans
        let refused = decide()
        // A lender is at most `maxEchoes` samples before its borrower: embeddings older than
        // that for every sample still to settle, and named by no pending loan, are done with.
        let oldest = min(pending.map(\.lender.sample).min() ?? .max, (inFlight.min() ?? planned) - tracker.rules.maxEchoes)
        published = published.filter { $0.key >= oldest }
        return refused
    }

    /// At the end of the pass every lender is made: the loans still pending are decided.
    func finish() -> [Loan] {
        turn.lock()
        defer { turn.unlock() }
        let refused = decide()
        precondition(pending.isEmpty, "every lender is published by the end of a pass")
        return refused
    }

    func repay(_ loan: Loan, with embedding: Embedding) {
        turn.lock()
        repaid[loan.sample, default: [:]][loan.face] = embedding
        turn.unlock()
    }

    /// The pass's frames (in sample order) with every borrowed embedding filled in.
    func lend(into frames: [StoredFrame]) -> [StoredFrame] {
        turn.lock()
        defer { turn.unlock() }
        var out = frames
        for (n, faces) in repaid {
            for (i, e) in faces { out[n].faces[i].embedding = e }
        }
        for loan in granted {
            out[loan.sample].faces[loan.face].embedding = frames[loan.lender.sample].faces[loan.lender.face].embedding
            out[loan.sample].faces[loan.face].echoed = true
        }
        return out
    }

    /// Decides every pending loan whose lender is published; returns the refused ones. Called
    /// with `turn` held.
    private func decide() -> [Loan] {
        var refused: [Loan] = []
        var still: [Loan] = []
        for loan in pending {
            guard let made = published[loan.lender.sample] else {
                still.append(loan)
                continue
            }
            if let e = made[loan.lender.face], lends(e) {
                granted.append(Granted(sample: loan.sample, face: loan.face, lender: loan.lender))
            } else {
                refused.append(loan)
            }
        }
        pending = still
        return refused
    }
}
