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
            let known = people.isEmpty ? "it knows no one yet: glimt-pure reference add PHOTO --person \(name)" : "people: " + people.joined(separator: ", ")
            return "the library has no person called '\(name)'" + (closest.map { " (did you mean '\($0)'?)" } ?? "") + " (\(known))"
        }
    }

    /// The person `name` names, or with no name the library's only person; nil for a library
    /// that knows no one. Several people and no name: `NotChosen`; a name none has: `UnknownPerson`.
    public static func choose(_ name: String?, in people: [Person]) throws -> Person? {
        if let name {
            guard let p = people.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw UnknownPerson(name: name, people: people.map(\.name))
            }
            return p
        }
        guard people.count <= 1 else { throw NotChosen(names: people.map(\.name)) }
        return people.first
    }
}

extension People {
    /// A person as `glimt-pure people` shows them: their references and the days of the library
    /// they are found on (judged from the store, with everyone else told apart).
    public struct Summary: Codable, Sendable {
        public var id: Int
        public var name: String
        public var references: [Reference]
        /// Days with a video the person is in (the identity rules met).
        public var daysFound: Int
        public var daysWithVideo: Int
    }

    public static func summaries(library: URL, rules: Judgement.Rules = Judgement.Rules()) throws -> [Summary] {
        let people = try ReferenceStore(library: library).people()
        let store = FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path) ? try LibraryStore(library: library) : nil
        let days = try store?.days() ?? []
        var found = [Int](repeating: 0, count: people.count)
        let judgements = people.indices.map { LookFor(people: people, person: $0).judgement(rules) }
        // One read of each day's videos serves every person.
        for day in days {
            let videos = try store!.videos(onDay: day)
            for (i, j) in judgements.enumerated() where !people[i].references.isEmpty {
                if videos.contains(where: { j.analysis(of: $0).identity?.containsPerson == true }) { found[i] += 1 }
            }
        }
        return people.enumerated().map { i, p in
            Summary(id: p.id, name: p.name, references: p.references, daysFound: found[i], daysWithVideo: days.count)
        }
    }

    /// Forgets a person: their references and thumbnails, then their pins and excluded days.
    public static func remove(_ name: String, library: URL) throws -> Person {
        let removed = try ReferenceStore(library: library).removePerson(name)
        if FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite").path) {
            try LibraryStore(library: library).forgetChoices(person: removed.id)
        }
        return removed
    }
}
