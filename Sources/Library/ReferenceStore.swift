import Foundation
import GlimtCore
import Imaging
import Analysis

/// A face the user chose as "this is my child": its embedding and where it came from.
public struct Reference: Codable, Equatable, Sendable {
    public var id: Int
    /// The photo's absolute path when it was added.
    public var photo: String
    /// 1-based number of the face in that photo, as `glimt-pure faces` shows it.
    public var face: Int
    public var box: Box
    public var landmarks: [Point]
    public var quality: Float
    /// Mean of the aligned face's embedding and its mirror image's, re-normalised.
    public var embedding: Embedding
    /// File name of the aligned 112x112 crop, inside the references folder.
    public var thumbnail: String
    /// ISO 8601 time it was added.
    public var added: String
    /// When the face was photographed, when known: the photo's EXIF time, or the day of the
    /// library's video it was taken from. Suggestions look for the person far from these.
    public var taken: String?
    /// For a face taken from a video of the library (`photo` is then the video): where in it.
    public var time: Double?

    public init(id: Int, photo: String, face: Int, box: Box, landmarks: [Point], quality: Float, embedding: Embedding,
                thumbnail: String, added: String, taken: String? = nil, time: Double? = nil) {
        self.taken = taken
        self.time = time
        self.id = id
        self.photo = photo
        self.face = face
        self.box = box
        self.landmarks = landmarks
        self.quality = quality
        self.embedding = embedding
        self.thumbnail = thumbnail
        self.added = added
    }

    /// What a hand-edited entry must still be for glimt to use it (the embedding checks itself
    /// when decoded); nil when it is fine.
    func problem() -> String? {
        guard id > 0 else { return "its id \(id) is not a positive number" }
        guard face > 0 else { return "its face number \(face) is not a positive number" }
        guard box.isFinite, box.width > 0, box.height > 0 else { return "its box is not a rectangle" }
        guard landmarks.count == 5, landmarks.allSatisfy(\.isFinite) else { return "it needs 5 finite landmarks, has \(landmarks.count)" }
        guard quality.isFinite else { return "its quality is not a finite number" }
        guard !thumbnail.isEmpty, !thumbnail.contains("/"), !thumbnail.hasPrefix(".") else {
            return "its thumbnail '\(thumbnail)' is not a file name in the references folder"
        }
        return nil
    }
}

/// A person the library looks for: a name and up to five reference faces.
public struct Person: Codable, Equatable, Sendable {
    /// Stable for the person's life in the library (pins and exclusions name it), never reused.
    public var id: Int
    public var name: String
    public var references: [Reference]

    public init(id: Int, name: String, references: [Reference]) {
        self.id = id
        self.name = name
        self.references = references
    }

    /// The embeddings they are recognised by.
    public var embeddings: [Embedding] { references.map(\.embedding) }

    /// Why `name` cannot name a person, or nil: it is typed on command lines and shown on sheets.
    public static func problem(name: String) -> String? {
        if name.isEmpty { return "a person's name cannot be empty" }
        if name.count > 64 { return "a person's name is at most 64 characters" }
        if name.hasPrefix("-") { return "a person's name cannot start with '-' ('\(name)' looks like an option)" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "a person's name cannot hold control characters" }
        if name.trimmingCharacters(in: .whitespaces) != name { return "a person's name cannot start or end with a space" }
        return nil
    }
}

/// The people of a library and their reference faces, kept in `<library>/references.json` with
/// thumbnails in `<library>/references/`. Changes are made under a lock and written
/// atomically, so two `reference add` at once both land, each checked against the list that
/// holds the other.
///
/// A list written before people existed (version 1: one list of references) is read as one
/// person, `ReferenceStore.firstPersonName`, with id 1; it is written as version 2 at the next
/// change.
public final class ReferenceStore {
    public static let maxReferences = 5
    /// The name a library's first person gets when none is given (and the references of a
    /// library from before people existed): `people rename` changes it.
    public static let firstPersonName = "child"
    public let library: URL

    public init(library: URL) { self.library = library }

    public var indexURL: URL { library.appendingPathComponent("references.json") }
    var folder: URL { library.appendingPathComponent("references", isDirectory: true) }
    var lockPath: String { library.appendingPathComponent(".references.lock").path }

    private struct Index: Codable {
        var version = 2
        var nextID = 1
        var nextPersonID = 1
        var people: [Person] = []
    }

    /// Version 1: the references of the one person, before people had names.
    private struct IndexV1: Codable {
        var version: Int
        var nextID: Int
        var references: [Reference]
    }

    private struct Version: Codable { var version: Int }

    private func load() throws -> Index {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return Index() }
        let what = "a glimt reference list"
        func bad(_ why: String) -> GlimtError {
            GlimtError("\(why); fix it or move the file away to start afresh", path: indexURL.path)
        }
        let version = try JSONFile.read(Version.self, from: indexURL.path, what: what).version
        var index: Index
        switch version {
        case 1:
            let old = try JSONFile.read(IndexV1.self, from: indexURL.path, what: what)
            index = Index(nextID: old.nextID, nextPersonID: 2,
                          people: old.references.isEmpty ? [] : [Person(id: 1, name: Self.firstPersonName, references: old.references)])
            if old.references.isEmpty { index.nextPersonID = 1 }
        case 2:
            index = try JSONFile.read(Index.self, from: indexURL.path, what: what)
        default:
            throw bad("version \(version) is not one this glimt reads (1 or 2)")
        }
        var names = Set<String>(), personIDs = Set<Int>(), ids = Set<Int>()
        for (p, person) in index.people.enumerated() {
            if let why = Person.problem(name: person.name) { throw bad("people[\(p)]: \(why)") }
            guard names.insert(person.name.lowercased()).inserted else { throw bad("two people are called '\(person.name)'") }
            guard person.id > 0, personIDs.insert(person.id).inserted else { throw bad("people[\(p)]: id \(person.id) is not a positive number of its own") }
            guard person.references.count <= Self.maxReferences else {
                throw bad("\(person.name) has \(person.references.count) references, at most \(Self.maxReferences) are used")
            }
            for (i, r) in person.references.enumerated() {
                if let why = r.problem() { throw bad("people[\(p)].references[\(i)]: \(why)") }
                guard ids.insert(r.id).inserted else { throw bad("two references share the id \(r.id)") }
            }
        }
        guard index.nextID > (ids.max() ?? 0) else { throw bad("nextID \(index.nextID) would reuse an id") }
        guard index.nextPersonID > (personIDs.max() ?? 0) else { throw bad("nextPersonID \(index.nextPersonID) would reuse a person's id") }
        return index
    }

    private func save(_ index: Index) throws {
        try JSONFile.write(index, to: indexURL.path)
    }

    /// Read, change and write the list under the library's lock.
    private func change<T>(_ body: (inout Index) throws -> T) throws -> T {
        try LibraryFolder.make(library)
        return try FileLock.withLock(lockPath) {
            var index = try load()
            let result = try body(&index)
            try save(index)
            return result
        }
    }

    public func people() throws -> [Person] { try load().people }

    /// The person of that name (names are matched ignoring case), or nil.
    public func person(named name: String) throws -> Person? {
        try load().people.first { $0.name.lowercased() == name.lowercased() }
    }
    /// The files of the store: the list, its lock and every thumbnail there is.
    public var files: [String] {
        let thumbnails = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return [indexURL.path, lockPath] + thumbnails.map { folder.appendingPathComponent($0).path }
    }

    /// The embeddings identity is judged against.
    public func embeddings() throws -> [Embedding] { try list().map(\.embedding) }

    /// Every reference of every person.
    public func list() throws -> [Reference] { try load().people.flatMap(\.references) }

    /// Stores `reference` for the person `name` (created on first use) under the next free id,
    /// with its aligned crop as a PNG thumbnail. `check` sees that person (nil when new) and
    /// every other person as stored, and throws to refuse: it runs under the lock, so two adds
    /// at once cannot both pass it against a list that lacks the other.
    @discardableResult
    public func add(_ reference: Reference, to name: String, thumbnailPNG: [UInt8],
                    check: (_ person: Person?, _ others: [Person]) throws -> Void) throws -> (reference: Reference, person: Person) {
        if let why = Person.problem(name: name) { throw GlimtError(why) }
        return try change { index in
            var p = index.people.firstIndex { $0.name.lowercased() == name.lowercased() }
            let others = index.people.enumerated().filter { $0.offset != p }.map(\.element)
            if let p, index.people[p].references.count >= Self.maxReferences {
                throw GlimtError("\(index.people[p].name) already has \(Self.maxReferences) references, the most glimt keeps; remove one first (glimt-pure reference remove ID --person \(index.people[p].name))",
                                 path: reference.photo)
            }
            try check(p.map { index.people[$0] }, others)
            if p == nil {
                index.people.append(Person(id: index.nextPersonID, name: name, references: []))
                index.nextPersonID += 1
                p = index.people.count - 1
            }
            var r = reference
            r.id = index.nextID
            r.thumbnail = "reference-\(r.id).png"
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(thumbnailPNG, to: folder.appendingPathComponent(r.thumbnail).path)
            index.people[p!].references.append(r)
            index.nextID += 1
            return (r, index.people[p!])
        }
    }

    /// Removes reference `id` (of the person `name`, when given: a check that it is theirs).
    public func remove(id: Int, person name: String? = nil) throws -> (reference: Reference, person: Person) {
        let removed: (Reference, Person) = try change { index in
            guard let p = index.people.firstIndex(where: { $0.references.contains { $0.id == id } }) else {
                throw GlimtError("no reference with ID \(id) (see: glimt-pure reference list)")
            }
            if let name, index.people[p].name.lowercased() != name.lowercased() {
                throw GlimtError("reference \(id) is \(index.people[p].name)'s, not \(name)'s (see: glimt-pure reference list)")
            }
            let i = index.people[p].references.firstIndex { $0.id == id }!
            return (index.people[p].references.remove(at: i), index.people[p])
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(removed.0.thumbnail))
        return removed
    }

    /// Gives a person another name (their pins and exclusions follow: they are kept by id).
    public func rename(_ old: String, to new: String) throws -> Person {
        if let why = Person.problem(name: new) { throw GlimtError(why) }
        return try change { index in
            guard let p = index.people.firstIndex(where: { $0.name.lowercased() == old.lowercased() }) else {
                throw GlimtError("no person called '\(old)' (see: glimt-pure people)")
            }
            if let other = index.people.first(where: { $0.name.lowercased() == new.lowercased() }), other.id != index.people[p].id {
                throw GlimtError("there is already a person called '\(other.name)'")
            }
            index.people[p].name = new
            return index.people[p]
        }
    }

    /// Forgets a person and their references; the caller forgets their pins and exclusions.
    public func removePerson(_ name: String) throws -> Person {
        let removed: Person = try change { index in
            guard let p = index.people.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw GlimtError("no person called '\(name)' (see: glimt-pure people)")
            }
            return index.people.remove(at: p)
        }
        for r in removed.references { try? FileManager.default.removeItem(at: folder.appendingPathComponent(r.thumbnail)) }
        return removed
    }
}
