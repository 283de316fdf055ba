/// Who one second of a video shows, by the identity rules as they judged its frames: the samples
/// that count are those inside the window, [start, start + length) of the file (a second of the
/// film; more of the file for slow motion stored slowed down), and in each only the face that
/// counts for the person (their best-matching face, one face one person applied). A second shows
/// the person when the video contains them (the lucky-frame rule) and that face reaches the match
/// threshold (0.45) in at least one of its samples. A pin, a film's caption and `days` ask this
/// of the second itself: the video's evidence says who is somewhere in it, not in the second.
extension VideoAnalysis {
    /// Whether the person judged is seen in `window` (one of this analysis's windows). False
    /// without references: no one was looked for.
    public func shows(in window: BestWindow.Window) -> Bool {
        identity?.containsPerson == true && frames[window.frames].contains { $0.subject != nil }
    }

    /// The identity evidence of `window`'s samples alone (nil without references): how many of
    /// them reach each threshold, their best cosine (0 when none holds a face compared), and
    /// `containsPerson` as `shows(in:)`.
    public func evidence(in window: BestWindow.Window, thresholds: Identity.Thresholds) -> IdentityEvidence? {
        guard identity != nil else { return nil }
        let cosines = frames[window.frames].map { $0.bestCosine ?? 0 }
        return IdentityEvidence(
            framesAtMatch: cosines.filter { $0 >= thresholds.match }.count, framesAtStrong: cosines.filter { $0 >= thresholds.strong }.count,
            bestCosine: cosines.max() ?? 0, containsPerson: shows(in: window))
    }

    /// Whether any sample inside `window` holds a face at all (whoever it is).
    public func hasFace(in window: BestWindow.Window) -> Bool { frames[window.frames].contains { !$0.faces.isEmpty } }
}
