import Analysis
import Library

/// Who a run looks for: the person judged (nil: no one, the best-looking second with a clear
/// face wins) and everyone they must be told apart from, the library's other people. A frame's
/// faces are matched to all of them one to one (`FaceAssignment`) before the person is judged.
public struct LookFor: Sendable {
    public var people: [Person]
    /// Index into `people` of the one judged.
    public var person: Int?
    /// The family film: every person at once (`person` nil), each day's second the one with
    /// most of them in it (see `FamilyDay`).
    public var everyone = false

    public init(people: [Person], person: Int?) {
        self.people = people
        self.person = person
    }

    /// All of `people` together.
    public static func everyone(_ people: [Person]) -> LookFor {
        var l = LookFor(people: people, person: nil)
        l.everyone = true
        return l
    }

    public static let noOne = LookFor(people: [], person: nil)

    /// The person judged.
    public var judged: Person? { person.map { people[$0] } }
    public var references: [Reference] { judged?.references ?? [] }

    /// The judgement of frames for this person under `rules`.
    public func judgement(_ rules: Judgement.Rules) -> Judgement {
        guard let person else { return Judgement(references: [], rules: rules) }
        // People without references yet cannot claim a face: they are left out of the matching.
        let known = people.enumerated().filter { !$0.element.references.isEmpty }
        return Judgement(people: known.map(\.element.embeddings), person: known.firstIndex { $0.offset == person }, rules: rules)
    }
}

extension LookFor {
    /// One person alone, by these references (none: no one).
    public static func only(_ references: [Reference], name: String = ReferenceStore.firstPersonName) -> LookFor {
        references.isEmpty ? .noOne : LookFor(people: [Person(id: 1, name: name, references: references)], person: 0)
    }
}
