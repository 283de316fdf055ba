import Analysis
import Foundation
import GlimtCore
import Imaging

/// A face the user chose as "this is my child": its embedding and where it came from.
public struct Reference: Codable, Equatable, Sendable {
    /// The library's key for it (its thumbnail's name): unique over everyone, never reused.
    public var id: Int
    /// The number a person sees and types: 1 to `ReferenceStore.maxReferences` among its
    /// person's references, kept for its life (the lowest free one when it is added).
    public var number: Int
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
    /// The face detector's score for the face, when it was taken from a photo (nil for
    /// references from before it was kept): a low one is perhaps no face at all.
    public var score: Float?

    public init(
        id: Int, photo: String, face: Int, box: Box, landmarks: [Point], quality: Float, embedding: Embedding,
        thumbnail: String, added: String, taken: String? = nil, time: Double? = nil, score: Float? = nil
    ) {
        self.taken = taken
        self.time = time
        self.score = score
        self.id = id
        number = 0
        self.photo = photo
        self.face = face
        self.box = box
        self.landmarks = landmarks
        self.quality = quality
        self.embedding = embedding
        self.thumbnail = thumbnail
        self.added = added
    }

    /// Lists written before numbers were kept have none: `ReferenceStore` gives them theirs.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        number = try c.decodeIfPresent(Int.self, forKey: .number) ?? 0
        photo = try c.decode(String.self, forKey: .photo)
        face = try c.decode(Int.self, forKey: .face)
        box = try c.decode(Box.self, forKey: .box)
        landmarks = try c.decode([Point].self, forKey: .landmarks)
        quality = try c.decode(Float.self, forKey: .quality)
        embedding = try c.decode(Embedding.self, forKey: .embedding)
        thumbnail = try c.decode(String.self, forKey: .thumbnail)
        added = try c.decode(String.self, forKey: .added)
        taken = try c.decodeIfPresent(String.self, forKey: .taken)
        time = try c.decodeIfPresent(Double.self, forKey: .time)
        score = try c.decodeIfPresent(Float.self, forKey: .score)
    }

    /// What a hand-edited entry must still be for glimt to use it (the embedding checks itself
    /// when decoded); nil when it is fine.
    func problem() -> String? {
        guard id > 0, id < ReferenceStore.largestID else { return "its id \(id) is not a number glimt writes (1 to \(ReferenceStore.largestID - 1))" }
        guard (0...ReferenceStore.maxReferences).contains(number) else {
            return "its number \(number) is not one of 1 to \(ReferenceStore.maxReferences)"
        }
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
    /// Their birthday, `YYYY-MM-DD`, which a film's age captions count from; nil when not given
    /// (and in lists from before it was kept).
    public var born: String?

    public init(id: Int, name: String, references: [Reference], born: String? = nil) {
        self.id = id
        self.name = name
        self.references = references
        self.born = born
    }

    /// The embeddings they are recognised by.
    public var embeddings: [Embedding] { references.map(\.embedding) }

    /// The word for the whole family (`--everyone`, the family's page and choices): no person's name.
    public static let everyone = "everyone"

    /// Why `name` cannot be given to a person now (made, or renamed to), or nil.
    public static func problem(newName name: String) -> String? {
        if let why = problem(name: name) { return why }
        if name.lowercased() == everyone { return "'\(name)' is the word for the whole family (--everyone); give the person another name" }
        return nil
    }

    /// For a person of a library from before `everyone` was kept for the family: how to rename them.
    public var reservedName: String? {
        name.lowercased() == Self.everyone
            ? "a person is called '\(name)', the word for the whole family (--everyone); give them another name first: glimt-pure people rename \(name) NEWNAME"
            : nil
    }

    /// Why `day` cannot be a birthday, or nil: it must be a calendar day, and not after the latest
    /// day a person may give (tomorrow in the zone furthest ahead, see `CaptureDate.latestDay`).
    public static func problem(born day: String, now: Date = Date()) -> String? {
        if let why = CalendarDay.problem(day) { return "the birthday \(why)" }
        let latest = CaptureDate.latestDay(now: now)
        return day > latest ? "the birthday \(day) is in the future (the latest day glimt takes is \(latest))" : nil
    }

    /// The name among `names` that `name` is probably a misspelling of: another name one letter
    /// off (two for names of five letters or more; a swap of two letters is one), ignoring case.
    public static func closeName(to name: String, in names: [String]) -> String? {
        let typed = name.lowercased()
        let scored = names.map { ($0, EditDistance.between(typed, $0.lowercased())) }
            .filter { $0.1 > 0 && $0.1 <= (min(typed.count, $0.0.count) >= 5 ? 2 : 1) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Why `name` cannot name a person, or nil: it is typed on command lines and shown on sheets.
    public static func problem(name: String) -> String? {
        if name.isEmpty { return "a person's name cannot be empty" }
        if name.count > 64 { return "a person's name is at most 64 characters" }
        if name.hasPrefix("-") { return "a person's name cannot start with '-' ('\(name)' looks like an option)" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a person's name cannot hold control characters"
        }
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
    /// Ids (of references and people) are below this: far more than a library makes, and far
    /// from where adding one more could overflow.
    public static let largestID = 1 << 40
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
            index = Index(
                nextID: old.nextID, nextPersonID: 2,
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
            if let born = person.born, CalendarDay.parse(born) == nil { throw bad("people[\(p)]: its birthday '\(born)' is not a calendar day") }
            guard names.insert(person.name.lowercased()).inserted else { throw bad("two people are called '\(person.name)'") }
            guard person.id > 0, person.id < Self.largestID, personIDs.insert(person.id).inserted else {
                throw bad("people[\(p)]: id \(person.id) is not a number glimt writes, of this person's own")
            }
            guard person.references.count <= Self.maxReferences else {
                throw bad("\(person.name) has \(person.references.count) references, at most \(Self.maxReferences) are used")
            }
            var numbers = Set<Int>()
            for (i, r) in person.references.enumerated() {
                if let why = r.problem() { throw bad("people[\(p)].references[\(i)]: \(why)") }
                guard ids.insert(r.id).inserted else { throw bad("two references share the id \(r.id)") }
                guard r.number == 0 || numbers.insert(r.number).inserted else { throw bad("\(person.name) has two references numbered \(r.number)") }
            }
            // A list from before numbers were kept: each gets the lowest free one, in its order.
            for i in person.references.indices where person.references[i].number == 0 {
                let free = (1...Self.maxReferences).first { !numbers.contains($0) }!
                index.people[p].references[i].number = free
                numbers.insert(free)
            }
        }
        guard index.nextID > (ids.max() ?? 0), index.nextID < Self.largestID else {
            throw bad("nextID \(index.nextID) would reuse an id, or is not a number glimt writes")
        }
        guard index.nextPersonID > (personIDs.max() ?? 0), index.nextPersonID < Self.largestID else {
            throw bad("nextPersonID \(index.nextPersonID) would reuse a person's id, or is not a number glimt writes")
        }
        return index
    }

    private func save(_ index: Index) throws {
        try JSONFile.write(index, to: indexURL.path)
    }

    /// Read, change and write the list under the library's lock. What a change cut short left
    /// behind goes first (see `sweep`).
    private func change<T>(_ body: (inout Index) throws -> T) throws -> T {
        try LibraryFolder.make(library)
        return try FileLock.withLock(lockPath) {
            var index = try load()
            sweep(index)
            let result = try body(&index)
            try save(index)
            return result
        }
    }

    /// Removes the thumbnails no reference names: those of a reference removed or a person
    /// removed by a run killed between writing the list and removing its files, or of an add
    /// killed before it wrote the list. Under the lock only, and never without a list (one moved
    /// away for a while must not cost the thumbnails).
    private func sweep(_ index: Index) {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return }
        let named = Set(index.people.flatMap { $0.references.map(\.thumbnail) })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where Self.isThumbnailName(name) && !named.contains(name) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// `reference-12.png`: the names glimt gives thumbnails, the only files a sweep removes.
    static func isThumbnailName(_ name: String) -> Bool {
        guard name.hasPrefix("reference-"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst("reference-".count).dropLast(".png".count)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Finishes what a change cut short left behind (thumbnails of references no longer
    /// listed), writing nothing else.
    public func tidy() throws {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return }
        try FileLock.withLock(lockPath) { sweep(try load()) }
    }

    /// Of `ids`, those that named a person once and name no one now (the person was removed):
    /// their pins and excluded days are no one's to keep.
    public func formerPeople(among ids: Set<Int>) throws -> Set<Int> {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return [] }
        let index = try load()
        let now = Set(index.people.map(\.id))
        return ids.filter { $0 > 0 && $0 < index.nextPersonID && !now.contains($0) }
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

    /// Stores `reference` for the person `name` under the next free id and the person's lowest
    /// free number, with its aligned crop as a PNG thumbnail. A name the library does not know
    /// makes a person, unless it is one letter or two from a person's name (a typo) and
    /// `newPerson` does not say it is meant; `newPerson` with a name that is a person's is
    /// refused. `check` sees that person (nil when new) and every other person as stored, and
    /// throws to refuse: it runs under the lock, so two adds at once cannot both pass it against
    /// a list that lacks the other.
    @discardableResult
    public func add(
        _ reference: Reference, to name: String, newPerson: Bool = false, thumbnailPNG: [UInt8],
        check: (_ person: Person?, _ others: [Person]) throws -> Void
    ) throws -> (reference: Reference, person: Person) {
        if let why = Person.problem(name: name) { throw GlimtError(why) }
        return try change { index in
            var p = index.people.firstIndex { $0.name.lowercased() == name.lowercased() }
            if let p {
                if newPerson { throw GlimtError("there is already a person called \(index.people[p].name); leave out --new to add to them") }
                if let why = index.people[p].reservedName { throw GlimtError(why) }
            } else {
                if let why = Person.problem(newName: name) { throw GlimtError(why) }
                if !newPerson, let close = Person.closeName(to: name, in: index.people.map(\.name)) {
                    throw GlimtError(
                        "no person is called '\(name)', and it is close to \(close): add to them with --person \(close), or make a new person with --new"
                    )
                }
            }
            let others = index.people.enumerated().filter { $0.offset != p }.map(\.element)
            if let p, index.people[p].references.count >= Self.maxReferences {
                throw GlimtError(
                    "\(index.people[p].name) already has \(Self.maxReferences) references, the most glimt keeps; remove one first (glimt-pure reference remove N --person \(index.people[p].name))",
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
            let taken = Set(index.people[p!].references.map(\.number))
            r.number = (1...Self.maxReferences).first { !taken.contains($0) }!
            r.thumbnail = "reference-\(r.id).png"
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(thumbnailPNG, to: folder.appendingPathComponent(r.thumbnail).path)
            index.people[p!].references.append(r)
            index.nextID += 1
            return (r, index.people[p!])
        }
    }

    /// Removes the reference numbered `number` of the person `name` (nil: the library's only
    /// person; with several, `NotChosen`-style: the caller says whose).
    public func remove(number: Int, person name: String) throws -> (reference: Reference, person: Person) {
        let removed: (Reference, Person) = try change { index in
            guard let p = index.people.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw GlimtError("no person called '\(name)' (see: glimt-pure people)")
            }
            guard let i = index.people[p].references.firstIndex(where: { $0.number == number }) else {
                let numbers = index.people[p].references.map(\.number).sorted().map(String.init).joined(separator: ", ")
                throw GlimtError(
                    "\(index.people[p].name) has no reference \(number) (" + (numbers.isEmpty ? "none at all" : "theirs are \(numbers)")
                        + "; see: glimt-pure reference list)")
            }
            return (index.people[p].references.remove(at: i), index.people[p])
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(removed.0.thumbnail))
        return removed
    }

    /// Gives a person another name (their pins and exclusions follow: they are kept by id).
    public func rename(_ old: String, to new: String) throws -> Person {
        if let why = Person.problem(newName: new) { throw GlimtError(why) }
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

    /// Gives a person their birthday (`YYYY-MM-DD`, see `Person.problem(born:)`), or with nil
    /// forgets it.
    public func setBorn(_ name: String, to born: String?) throws -> Person {
        if let born, let why = Person.problem(born: born) { throw GlimtError(why) }
        return try change { index in
            guard let p = index.people.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw GlimtError("no person called '\(name)' (see: glimt-pure people)")
            }
            index.people[p].born = born
            return index.people[p]
        }
    }

    /// Forgets a person and their references; the caller forgets their pins and exclusions first
    /// (see `People.remove`), so that a run cut short leaves the name to finish it with.
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
