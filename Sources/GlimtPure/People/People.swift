import Analysis
import Foundation
import GlimtCore
import Library

/// The several people of a library: which one a command is for, and the changes to them that
/// reach past their references (pins and exclusions are theirs).
public enum People {
    /// The library has several people and the command did not say which.
    public struct NotChosen: Error, CustomStringConvertible {
        public let names: [String]
        public var description: String {
            "the library knows \(names.count) people (\(names.joined(separator: ", "))): say which with --person NAME"
        }
    }

    /// A name that is none of the library's people: a mistake in what the person asked for,
    /// not a failure (the command line's tells it as a usage mistake, with the name probably meant).
    public struct UnknownPerson: Error, CustomStringConvertible {
        public let name: String
        /// The library's people, by name.
        public let people: [String]
        public var description: String { description(closest: nil) }

        /// The line, with `closest` (a name of `people`) said as what was probably meant.
        public func description(closest: String?) -> String {
            let known =
                people.isEmpty ? "it knows no one yet: glimt-pure reference add PHOTO --person \(name)" : "people: " + people.joined(separator: ", ")
            return "the library has no person called '\(name)'" + (closest.map { " (did you mean '\($0)'?)" } ?? "") + " (\(known))"
        }
    }

    /// The person `name` names, or with no name the library's only person; nil for a library
    /// that knows no one. Several people and no name: `NotChosen`; a name none has:
    /// `UnknownPerson`. A person of a library from before `everyone` was kept for the family is
    /// refused until renamed: their page and choices would be taken for the family's.
    public static func choose(_ name: String?, in people: [Person]) throws -> Person? {
        if let name {
            guard let p = people.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                if name.lowercased() == Person.everyone {
                    throw GlimtError("'\(name)' is the whole family: say --everyone (--person names one person)")
                }
                throw UnknownPerson(name: name, people: people.map(\.name))
            }
            if let why = p.reservedName { throw GlimtError(why) }
            return p
        }
        guard people.count <= 1 else { throw NotChosen(names: people.map(\.name)) }
        if let why = people.first?.reservedName { throw GlimtError(why) }
        return people.first
    }

    /// Whose choices a choices file holds, as the store keys them: `person` (the file's, or the
    /// one --person names) is the family for `everyone`, else a person of the library, else no one.
    public static func choicesOwner(_ person: String?, library: URL) throws -> Int {
        let people = try ReferenceStore(library: library).people()
        if person?.lowercased() == Person.everyone {
            // A person of that name from before the word was kept: the file could be theirs.
            if let why = people.first(where: { $0.reservedName != nil })?.reservedName { throw GlimtError(why) }
            return LibraryStore.everyone
        }
        return try choose(person, in: people)?.id ?? LibraryStore.noOne
    }
}

extension People {
    /// A person as `glimt-pure people` shows them: their references and the days of the library
    /// they are found on (judged from the store, with everyone else told apart).
    public struct Summary: Codable, Sendable {
        public var id: Int
        public var name: String
        public var references: [Reference]
        /// Their birthday, `YYYY-MM-DD`, when given (`people set NAME --born DAY`).
        public var born: String?
        /// Days with a video or photo the person is in (the identity rules met).
        public var daysFound: Int
        /// Days with a video or photo.
        public var daysRecorded: Int
    }

    public static func summaries(library: URL, rules: Judgement.Rules = Judgement.Rules()) throws -> [Summary] {
        let people = try ReferenceStore(library: library).people()
        let store =
            FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path) ? try LibraryStore(library: library) : nil
        let days = try store?.days() ?? []
        var found = [Int](repeating: 0, count: people.count)
        let judgements = people.indices.map { LookFor(people: people, person: $0).judgement(rules) }
        // One read of each day's videos serves every person, and the days are judged on every
        // core (the store reads on each thread's own connection): per day, who is found.
        let perDay =
            store.map { store in
                Concurrently.map(days.count) { d in
                    Result {
                        let videos = try store.videos(onDay: days[d])
                        return judgements.indices.map { i in
                            !people[i].references.isEmpty && videos.contains { judgements[i].analysis(of: $0).identity?.containsPerson == true }
                        }
                    }
                }
            } ?? []
        for day in perDay {
            for (i, isFound) in try day.get().enumerated() where isFound { found[i] += 1 }
        }
        return people.enumerated().map { i, p in
            Summary(id: p.id, name: p.name, references: p.references, born: p.born, daysFound: found[i], daysRecorded: days.count)
        }
    }

    /// Forgets a person: their pins and excluded days, then their references, then their
    /// thumbnails. Each step is whole by itself (a transaction, an atomic write), and a run cut
    /// short between them leaves the person's name, so the same command finishes it; what a run
    /// of an older glimt cut short after the name went (pins of no one, thumbnails of no
    /// reference) is cleared first.
    public static func remove(_ name: String, library: URL) throws -> Person {
        let references = ReferenceStore(library: library)
        let store =
            FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path) ? try LibraryStore(library: library) : nil
        try references.tidy()
        if let store {
            for id in try references.formerPeople(among: store.choiceOwners()) { try store.forgetChoices(person: id) }
        }
        guard let person = try references.person(named: name) else { throw GlimtError("no person called '\(name)' (see: glimt-pure people)") }
        try store?.forgetChoices(person: person.id)
        return try references.removePerson(person.name)
    }
}
