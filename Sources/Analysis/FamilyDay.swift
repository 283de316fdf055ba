/// The family film: each day, the second with the most of the library's people in it (ties:
/// the better score), judged from each person's own verdicts (every rule, one face one person
/// included, applies to each of them as in their own film).
public enum FamilyDay {
    /// One video of the day, judged once for each person (the same frames, `names`' order).
    public struct Video: Sendable {
        public var byPerson: [VideoAnalysis]

        public init(byPerson: [VideoAnalysis]) { self.byPerson = byPerson }
    }

    /// The video judged for everyone at once: a frame's identity part is the mean of the
    /// people's (a person the video does not contain counts 0), its face part the clearest of
    /// theirs, and its subject the face of the person it shows most clearly; then the best
    /// window and its framing as for anyone. `present` is who is in that window.
    /// A video judged for everyone together, and who is in its best second.
    public struct Together: Sendable {
        public var analysis: VideoAnalysis
        public var present: [String]
        public var video: Video
    }

    public static func together(_ video: Video, names: [String], rules: Judgement.Rules) -> Together {
        let all = video.byPerson
        var combined = all[0]
        let contains = all.map { $0.identity?.containsPerson == true }
        combined.frames = all[0].frames.indices.map { i in
            var f = all[0].frames[i]
            let identities = all.indices.map { p in contains[p] ? all[p].frames[i].score.identity ?? 0 : 0 }
            let clearest = all.indices.filter { contains[$0] && all[$0].frames[i].subject != nil }.max { identities[$0] < identities[$1] }
            f.subject = clearest.flatMap { all[$0].frames[i].subject }
            f.clearFace = clearest.map { all[$0].frames[i].clearFace } ?? 0
            f.bestCosine = clearest.flatMap { all[$0].frames[i].bestCosine }
            f.score = FrameScore(
                aesthetics: f.aesthetics.value, sharpness: f.sharpness, face: f.clearFace,
                identity: identities.reduce(0, +) / Float(max(1, identities.count)))
            return f
        }
        combined.identity = nil
        combined.window = BestWindow.best(
            times: combined.frames.map(\.time), scores: combined.frames.map(\.score.total), duration: combined.duration,
            length: rules.windowLength * combined.recording.speed, sampled: combined.stretches, marks: combined.moment)
        combined.crop = combined.window.map { combined.framing($0, aspect: rules.aspect) }
        return Together(analysis: combined, present: present(in: combined, byPerson: video, names: names), video: video)
    }

    /// Who is in `analysis`'s window (a second of `video` judged together): each person that
    /// second shows (`VideoAnalysis.shows(in:)`).
    public static func present(in analysis: VideoAnalysis, byPerson video: Video, names: [String]) -> [String] {
        guard let w = analysis.window else { return [] }
        return names.indices.filter { video.byPerson[$0].shows(in: w) }.map { names[$0] }
    }

    /// The day's second: the competing video whose best second has the most people in it, then
    /// the best score; nil when no one is in any (with the reason), unless `rules.withoutPerson`
    /// takes the best second anyway.
    public static func pick(day: String, _ judged: [Together], names: [String], rules: Judgement.Rules) -> (pick: DayPick?, reason: String?) {
        let competing = judged.filter { $0.analysis.setAside == nil && $0.analysis.window != nil }
        let tiers = rules.photos.tiers(competing) { $0.analysis.recording.kind.isPhoto }
        let withPeople = tiers.lazy.map { $0.filter { !$0.present.isEmpty } }.first { !$0.isEmpty } ?? []
        let eligible = withPeople.isEmpty && rules.withoutPerson == .include ? tiers.first { !$0.isEmpty } ?? [] : withPeople
        // Ties go to the earlier capture, then the path: the same input always gives the same film.
        guard
            let best = eligible.max(by: { a, b in
                if a.present.count != b.present.count { return a.present.count < b.present.count }
                if a.analysis.window!.meanScore != b.analysis.window!.meanScore { return a.analysis.window!.meanScore < b.analysis.window!.meanScore }
                return (a.analysis.capture.time ?? "", a.analysis.path) > (b.analysis.capture.time ?? "", b.analysis.path)
            }), var pick = DayPick(day: day, best.analysis, candidates: judged.count)
        else {
            if competing.isEmpty { return (nil, judged.isEmpty ? nil : "no video of it competes (set aside, or too short)") }
            let offered = tiers.flatMap { $0 }
            if offered.isEmpty { return (nil, DayPick.onlyPhotos) }
            return (nil, "none of \(names.joined(separator: ", ")) is in its \(DayPick.counted(offered.map(\.analysis.recording.kind.isPhoto)))")
        }
        pick.people = best.present
        return (pick, nil)
    }
}
