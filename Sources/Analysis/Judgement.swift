import GlimtCore
import Imaging

/// From observed frames to a verdict: each face compared with the references, each frame
/// scored, then the video-level rules (lucky frame, best window, framing). The same code judges
/// a video just decoded and one read back from the library, so a change of references re-scores
/// the library exactly as a new analysis would.
public struct Judgement: Sendable {
    /// Everything a verdict depends on besides the references: the identity thresholds, the
    /// length and shape of the second, which recordings compete, and days without the person.
    public struct Rules: Sendable, Equatable {
        public var thresholds: Identity.Thresholds = .standard
        /// Seconds of the chosen window (the film's clip length).
        public var windowLength = ClipLength.standard
        /// Width / height of the film the crops are framed for.
        public var aspect = Aspect.standard.ratio
        /// Whether Live Photos' movies and screen recordings compete for their days (see `Recording`).
        public var recordings = RecordingChoice()
        /// A day none of whose videos shows the person of the references: skipped, or its best
        /// second anyway.
        public var withoutPerson: DayPick.WithoutPerson = .skip
        /// Where photos take a day's second (see `PhotoUse`).
        public var photos: PhotoUse = .fill

        public init() {}
    }

    /// Every person of the library, each by their reference embeddings: a frame's faces are
    /// matched to them one to one (see `FaceAssignment`) before the person judged is looked at.
    public let people: [[Embedding]]
    /// The one judged, an index into `people`; nil: no one is looked for.
    public let person: Int?
    public let rules: Rules

    public init(people: [[Embedding]], person: Int?, rules: Rules) {
        precondition(person.map { people.indices.contains($0) && !people[$0].isEmpty } ?? true, "the person judged has references")
        self.people = people
        self.person = person
        self.rules = rules
        everyReference = ReferenceTable(people)
    }

    /// `people`, as faces are compared with them.
    private let everyReference: ReferenceTable

    /// One person's references, and no one else's (a one-shot run); none: no one is looked for.
    public init(references: [Embedding], rules: Rules) {
        self.init(people: references.isEmpty ? [] : [references], person: references.isEmpty ? nil : 0, rules: rules)
    }

    /// The references of the person judged.
    public var references: [Embedding] { person.map { people[$0] } ?? [] }
    public var hasReferences: Bool { person != nil }

    /// Each face's cosine for the person judged: its best over their references, or nil when
    /// the face counts for someone else or cannot be told apart from two people (or was not
    /// embedded). With one person that is every embedded face's own cosine.
    public func cosines(_ f: ObservedFrame) -> [Float?] {
        guard let person else { return f.faces.map { _ in nil } }
        // Every face against every person, in one array (a face's row at face * people.count):
        // a decade's judging compares 2.6 million faces, and an array per face was most of it.
        let n = people.count, match = rules.thresholds.match
        var table = [Float](repeating: -1, count: f.faces.count * n)
        table.withUnsafeMutableBufferPointer { t in
            for (i, face) in f.faces.enumerated() {
                guard let e = face.embedding else { continue }
                everyReference.bestCosines(e, into: UnsafeMutableBufferPointer(rebasing: t[(i * n)..<(i * n + n)]))
            }
        }
        let reached = table.contains { $0 >= match }
        // With one person, or where no face reaches the match threshold for anyone (most
        // frames of a library), no face is given to anyone and none is ambiguous: each keeps
        // its own cosine.
        guard n > 1, reached else { return f.faces.indices.map { f.faces[$0].embedding == nil ? nil : table[$0 * n + person] } }
        let rows = f.faces.indices.map { i in f.faces[i].embedding == nil ? nil : Array(table[(i * n)..<(i * n + n)]) }
        let owners = FaceAssignment.assign(rows, match: match)
        return rows.enumerated().map { i, row in
            guard let row, owners[i] == person || (owners[i] == nil && !FaceAssignment.isAmbiguous(row, match: match)) else {
                return nil
            }
            return row[person]
        }
    }

    public func frame(_ f: ObservedFrame) -> FrameAnalysis {
        let cosines = self.cosines(f)
        let faces = f.faces.enumerated().map { i, x in
            FaceInFrame(box: x.box, score: x.score, quality: x.quality, cosine: cosines[i], borrowed: x.borrowed, eyes: x.eyes)
        }
        return FrameAnalysis.evaluate(
            time: f.time, faces: faces, aesthetics: f.aesthetics, sharpness: f.sharpness,
            hasReferences: hasReferences, thresholds: rules.thresholds, shotChange: f.shotChange)
    }

    /// A video looked at by its keyframes first is judged by the frames of its stretches; the
    /// keyframes seen outside them count as evidence of who is in it (see `VideoAnalysis.conclude`).
    /// A second longer than its stretches hold (the library's are cut for the standard one; a
    /// film of longer clips judges later) is chosen from every frame kept, keyframes included.
    public func analysis(of v: ObservedVideo) -> VideoAnalysis {
        let looked = conclude(v)
        guard looked.window == nil, v.stretches != nil else { return looked }
        return conclude(v.sampledWhole)
    }

    private func conclude(_ v: ObservedVideo) -> VideoAnalysis {
        let (sampled, glimpses) = v.sampledAndGlimpsed
        return VideoAnalysis.conclude(
            path: v.path, duration: v.duration, width: v.width, height: v.height, rotation: v.rotation, codec: v.codec, hdr: v.hdr,
            capture: v.capture, frames: sampled.map(frame), glimpses: glimpses.map(frame), stretches: v.stretches,
            hasReferences: hasReferences, thresholds: rules.thresholds,
            windowLength: rules.windowLength, aspect: rules.aspect, times: VideoAnalysis.StageTimes(),
            facts: v.recording, choice: rules.recordings, notes: v.notes, speech: v.speech, closedEyes: v.closedEyes)
    }
}
