import GlimtPure

/// The closest of some names to what was typed, for "did you mean": within two edits (a typo,
/// a missing or doubled letter, two letters swapped), and then only the closest.
enum Suggestion {
    static func closest(to typed: String, in names: [String]) -> String? {
        let scored = names.map { ($0, EditDistance.between(typed, $0)) }.filter { $0.1 <= 2 && $0.1 < max(typed.count, 2) }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }
}
