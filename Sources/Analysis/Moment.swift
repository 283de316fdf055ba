import Foundation
import Imaging

/// What makes a second whole besides its score: one shot, open eyes, and edges in the pauses of
/// speech. Built from a video's frames and its speech; `BestWindow` asks it to choose.
public struct Moment: Sendable {
    /// Per frame: a scene cut lies between the frame sampled before it and it.
    public var cutBefore: [Bool]
    /// Per frame: a face that counts has its eyes closed.
    public var eyesClosed: [Bool]
    /// Nil: the video has no sound, or it was not listened to.
    public var speech: SpeechMap?
    /// Times between samples when a face that counts had its eyes closed (read at the video's
    /// own frame rate; see `ObservedVideo.closedEyes`).
    public var closedEyes: [Double]

    /// A window with fewer flaws is preferred when its mean score is at least this share of the
    /// best candidate's below it: close enough that the look is the same second's kind, far
    /// enough that a blink or a cut word is not traded for a lesser moment.
    public static let closeEnough: Float = 0.7

    /// A face counts for the eyes when it is the frame's subject or at least this share of the
    /// frame's height: a blink in the back of a crowd is not what a parent sees.
    public static let eyesFromFaceHeight: Float = 0.08

    public init(cutBefore: [Bool], eyesClosed: [Bool], speech: SpeechMap?, closedEyes: [Double] = []) {
        self.cutBefore = cutBefore
        self.eyesClosed = eyesClosed
        self.speech = speech
        self.closedEyes = closedEyes
    }

    /// The marks of judged frames: cuts where `ShotSignature.cuts` finds them, closed eyes where
    /// `EyeOpenness.isClosed` says so of a face that counts, against that face's own open eyes.
    public init(frames: [FrameAnalysis], frameHeight: Int, speech: SpeechMap?, closedEyes: [Double] = []) {
        let tall = Moment.eyesFromFaceHeight * Float(frameHeight)
        let times = frames.map(\.time)
        let cuts = ShotSignature.cuts(frames.map(\.shotChange))
        self.init(
            cutBefore: cuts,
            eyesClosed: frames.indices.map { k in
                let f = frames[k]
                return f.faces.indices.contains { i in
                    guard i == f.subject || f.faces[i].box.height >= tall, let e = f.faces[i].eyes else { return false }
                    return EyeOpenness.isClosed(e, open: Self.openLevel(of: f.faces[i].box, around: k, in: frames, times: times, cutBefore: cuts))
                }
            },
            speech: speech, closedEyes: closedEyes)
    }

    /// How open the eyes of the face at `box` are when open: the readings of faces at the same
    /// place within `EyeOpenness.openLevelSeconds` of frame `k` and in its shot (people blink a
    /// few times a minute, so most readings are open; across a cut the face at that place is
    /// someone else's), at their `EyeOpenness.openLevelShare` quantile.
    static func openLevel(of box: Box, around k: Int, in frames: [FrameAnalysis], times: [Double], cutBefore: [Bool]) -> Float? {
        var first = k
        while first > 0 && times[k] - times[first - 1] <= EyeOpenness.openLevelSeconds && !cutBefore[first] { first -= 1 }
        var end = k + 1
        while end < frames.count && times[end] - times[k] <= EyeOpenness.openLevelSeconds && !cutBefore[end] { end += 1 }
        var readings: [Float] = []
        for j in first..<end {
            for face in frames[j].faces where box.contains(face.box.center) { if let e = face.eyes { readings.append(e) } }
        }
        return EyeOpenness.openLevel(of: readings)
    }

    /// A blink lasts 100-300 ms, and a reading of closed eyes may fall anywhere in it: eyes read
    /// closed at a time spoil a second that starts or ends this near it.
    public static let blinkReach = 0.1

    /// A second may move by at most this share of its length to put its edges in pauses of
    /// speech: a quarter keeps three quarters of the frames it was scored on.
    public static let edgeShift = 0.25
    /// How far beyond `SpeechMap`'s margins an edge is moved into a pause when it can: where a
    /// word ends is heard a little differently by each ear.
    public static let edgeClearance = 0.05
    /// The steps in which a second is moved: a 100 fps grid, finer than any video's frames.
    static let shiftStep = 0.01

    /// A window's flaws, each with the time it shows.
    public func flaws(of w: BestWindow.Window, times: [Double]) -> [Flaw] {
        var found: [Flaw] = []
        // The frame sampled just after the window says whether its last moments are another shot;
        // a window starting between two samples may also show the shot before its first one.
        let after = min(w.frames.upperBound, cutBefore.count - 1)
        let shown = w.start < times[w.frames.lowerBound] - BestWindow.slack ? w.frames.lowerBound : w.frames.lowerBound + 1
        if let k = (shown...max(shown, after)).first(where: { $0 > 0 && cutBefore.indices.contains($0) && cutBefore[$0] }) {
            found.append(.sceneCut(at: (times[k - 1] + times[k]) / 2))
        }
        // Eyes seen closed just outside the window may still be closing or opening inside it.
        let first = BestWindow.firstIndex(in: times, from: w.start - Self.blinkReach)
        let end = BestWindow.firstIndex(in: times, from: w.start + w.length + Self.blinkReach)
        let sampled = (first..<end).first(where: { eyesClosed[$0] }).map { times[$0] }
        let between = closedEyes.first {
            w.start - Self.blinkReach - BestWindow.slack <= $0 && $0 < w.start + w.length + Self.blinkReach - BestWindow.slack
        }
        if let t = [sampled, between].compactMap({ $0 }).min() { found.append(.eyesClosed(at: t)) }
        for edge in [w.start, w.start + w.length] where speech?.cutsSpeech(at: edge) == true { found.append(.midWord(at: edge)) }
        return found
    }

    /// `w` moved by at most `edgeShift` of its length so that its edges lie as far into pauses of
    /// speech as they can, up to `edgeClearance`; the least move that does so. Unmoved when no
    /// move gains clearance, or every such move would take in a scene cut or closed eyes the
    /// window did not have, time outside the video or its sampled stretches, or one of `avoid`.
    func placed(_ w: BestWindow.Window, in frames: BestWindow.Frames, avoid: [Range<Double>]) -> BestWindow.Window {
        guard let speech, !speech.runs.isEmpty else { return w }
        func clear(_ start: Double) -> Double {
            min(speech.clearance(at: start), speech.clearance(at: start + w.length), Self.edgeClearance)
        }
        let here = clear(w.start)
        guard here < Self.edgeClearance else { return w }
        let steps = Int((Self.edgeShift * w.length / Self.shiftStep).rounded(.down))
        var moves: [(shift: Double, clear: Double)] = []
        for k in -steps...steps {
            let shift = Double(k) * Self.shiftStep
            let c = clear(w.start + shift)
            if c > here && c > 0 { moves.append((shift, c)) }
        }
        moves.sort { a, b in a.clear != b.clear ? a.clear > b.clear : abs(a.shift) < abs(b.shift) }
        let had = flaws(of: w, times: frames.times)
        for move in moves {
            let start = w.start + move.shift
            guard !avoid.contains(where: { $0.overlaps(start..<(start + w.length)) }),
                let moved = frames.window(at: start, length: w.length), moved.meanScore.isFinite
            else { continue }
            let has = flaws(of: moved, times: frames.times)
            if has.contains(where: \Flaw.isSceneCut) && !had.contains(where: \Flaw.isSceneCut) { continue }
            if has.contains(where: \Flaw.isEyesClosed) && !had.contains(where: \Flaw.isEyesClosed) { continue }
            return moved
        }
        return w
    }

    /// The window `BestWindow.best` chooses from `all` (see there), each first `placed` in the
    /// pauses of speech, with its flaws and why a better-scoring one was passed over.
    func choose(from grid: [BestWindow.Window], in frames: BestWindow.Frames, avoid: [Range<Double>] = []) -> BestWindow.Window? {
        let all = grid.map { placed($0, in: frames, avoid: avoid) }
        let times = frames.times
        guard let top = BestWindow.highest(all) else { return nil }
        let flawsOf = all.map { flaws(of: $0, times: times) }
        let oneShot = all.indices.filter { i in !flawsOf[i].contains { $0.isSceneCut } }
        let pool = oneShot.isEmpty ? Array(all.indices) : oneShot
        guard let best = BestWindow.highest(pool.map { all[$0] }).map({ pool[$0] }), all[best].meanScore.isFinite else { return nil }
        let floor = all[best].meanScore >= 0 ? all[best].meanScore * Self.closeEnough : all[best].meanScore
        let weight = flawsOf.map { $0.reduce(0) { $0 + $1.weight } }
        // Where every close-enough second cuts a word, the one that cuts nearest a word's edge, in
        // steps of `VoiceActivity`'s frames; then the better score.
        let depth = all.map { w in
            speech.map { speech in
                Int(([w.start, w.start + w.length].map { speech.depth(at: $0) }.reduce(0, +) / VoiceActivity.frameSeconds).rounded())
            } ?? 0
        }
        let chosen = pool.filter { all[$0].meanScore >= floor }.min { a, b in
            if weight[a] != weight[b] { return weight[a] < weight[b] }
            if depth[a] != depth[b] { return depth[a] < depth[b] }
            return all[a].meanScore != all[b].meanScore ? all[a].meanScore > all[b].meanScore : a < b
        }!
        var w = all[chosen]
        w.flaws = flawsOf[chosen].map(\.description)
        if chosen != top {
            w.passedOver =
                String(format: "the second at %.1f s scores higher: ", all[top].start) + flawsOf[top].map(\.description).joined(separator: ", ")
        }
        return w
    }

    /// Something that spoils a second, where it shows.
    public enum Flaw: Equatable, Sendable, CustomStringConvertible {
        case sceneCut(at: Double)
        case eyesClosed(at: Double)
        case midWord(at: Double)

        var isSceneCut: Bool { if case .sceneCut = self { true } else { false } }
        public var isEyesClosed: Bool { if case .eyesClosed = self { true } else { false } }

        /// Closed eyes are what a parent sees first: they outweigh a word cut at one edge, not words
        /// cut at both (chosen on the clips of `tools/moment`). A scene cut is ruled out before
        /// weights count.
        var weight: Int {
            switch self {
            case .eyesClosed: 3
            case .midWord: 2
            case .sceneCut: 1
            }
        }

        public var description: String {
            switch self {
            case .sceneCut(let t): String(format: "scene cut at %.1f s", t)
            case .eyesClosed(let t): String(format: "eyes closed at %.1f s", t)
            case .midWord(let t): String(format: "cut mid-word at %.1f s", t)
            }
        }
    }
}
