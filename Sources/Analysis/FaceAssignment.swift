/// One face, one person: in a frame, the faces and the people of a library are matched one to
/// one before any person's rules are applied, so a sibling who happens to score at the match
/// threshold against the person, but as much or more against herself, is never taken for the
/// child.
///
/// A face counts for at most one person and a person for at most one face. The pairs of a face
/// and a person at or above the match threshold are taken best first: when two people's best
/// face is the same face, the better match takes it and the other person looks at their
/// next-best face. A face whose two best people are within `margin` of each other counts for
/// neither: the embeddings cannot tell them apart.
public enum FaceAssignment {
    /// How close a face's two best people may be before it counts for neither (see
    /// docs/people.md for how it was measured).
    public static let margin: Float = 0.10

    /// For each face (rows of `cosines`, one column per person: the face's best cosine over that
    /// person's references; nil for a face that was not embedded), the person it counts for.
    public static func assign(_ cosines: [[Float]?], match: Float, margin: Float = margin) -> [Int?] {
        var owner = [Int?](repeating: nil, count: cosines.count)
        var pairs: [(cosine: Float, face: Int, person: Int)] = []
        var people = 0
        for (face, row) in cosines.enumerated() {
            guard let row, !isAmbiguous(row, match: match, margin: margin) else { continue }
            people = max(people, row.count)
            for (person, c) in row.enumerated() where c >= match { pairs.append((c, face, person)) }
        }
        // Best first; ties to the earlier face, then the earlier person, so a frame is always
        // judged the same way.
        pairs.sort { ($0.cosine, $1.face, $1.person) > ($1.cosine, $0.face, $0.person) }
        var taken = [Bool](repeating: false, count: people)
        for p in pairs where owner[p.face] == nil && !taken[p.person] {
            owner[p.face] = p.person
            taken[p.person] = true
        }
        return owner
    }

    /// Whether a face's two best people are too close to tell apart (only matters from the match
    /// threshold up: two strangers' low scores decide nothing).
    public static func isAmbiguous(_ row: [Float], match: Float, margin: Float = margin) -> Bool {
        guard row.count >= 2 else { return false }
        // The two best, as sorting would give them (a tie is its own second best), without
        // sorting every face's row.
        var first = -Float.infinity, second = -Float.infinity
        for c in row {
            if c > first {
                (first, second) = (c, first)
            } else if c > second {
                second = c
            }
        }
        return first >= match && first - second < margin
    }
}
