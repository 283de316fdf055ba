import Analysis
import Library

/// Who of the library's people a second of a stored video shows, judged from the store (the
/// faces and embeddings of its samples; nothing is decoded) for each person by the same rules as
/// their days (`VideoAnalysis.shows(in:)`): what a pin is checked against and what its refusal
/// says.
public struct WhoIsShown: Equatable, Sendable {
    /// The people the second shows, in the library's order.
    public var people: [String]
    /// Whether any sample inside the second holds a face, whoever it is.
    public var anyFace: Bool

    /// What a person reads: the names, else "no one the library knows", else "no face".
    public var description: String {
        !people.isEmpty ? people.joined(separator: ", ") : anyFace ? "no one the library knows" : "no face"
    }

    /// The second of `stored` from `start` as a pin takes it (`LibraryDays.pinned`, so a look's
    /// keyframes count as they do there); nil when no sample lies in it. People without
    /// references show nowhere.
    public static func at(_ start: Double, in stored: ObservedVideo, people: [Person], rules: Judgement.Rules) -> WhoIsShown? {
        func second(_ judgement: Judgement) -> (VideoAnalysis, BestWindow.Window)? {
            guard let v = LibraryDays.pinned(stored, judged: judgement.analysis(of: stored), at: start, rules: rules, judge: judgement.analysis),
                let w = v.window
            else { return nil }
            return (v, w)
        }
        guard case let (anyone, window)? = second(LookFor.noOne.judgement(rules)) else { return nil }
        let shown = people.indices.filter { p in
            guard !people[p].references.isEmpty, case let (v, w)? = second(LookFor(people: people, person: p).judgement(rules)) else { return false }
            return v.shows(in: w)
        }
        return WhoIsShown(people: shown.map { people[$0].name }, anyFace: anyone.hasFace(in: window))
    }
}
