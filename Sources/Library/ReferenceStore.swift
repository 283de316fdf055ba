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

    public init(id: Int, photo: String, face: Int, box: Box, landmarks: [Point], quality: Float, embedding: Embedding,
                thumbnail: String, added: String) {
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

/// Up to five reference faces, kept in `<library>/references.json` with thumbnails in
/// `<library>/references/`. Changes are made under a lock and written atomically, so two
/// `reference add` at once both land, each checked against the list that holds the other.
public final class ReferenceStore {
    public static let maxReferences = 5
    public let library: URL

    public init(library: URL) { self.library = library }

    public var indexURL: URL { library.appendingPathComponent("references.json") }
    var folder: URL { library.appendingPathComponent("references", isDirectory: true) }
    var lockPath: String { library.appendingPathComponent(".references.lock").path }

    private struct Index: Codable {
        var version = 1
        var nextID = 1
        var references: [Reference] = []
    }

    private func load() throws -> Index {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return Index() }
        let index = try JSONFile.read(Index.self, from: indexURL.path, what: "a glimt reference list")
        func bad(_ why: String) -> GlimtError {
            GlimtError("\(why); fix it or move the file away to start afresh", path: indexURL.path)
        }
        guard index.version == 1 else { throw bad("version \(index.version) is not one this glimt reads (1)") }
        guard index.references.count <= Self.maxReferences else { throw bad("holds \(index.references.count) references, at most \(Self.maxReferences) are used") }
        for (i, r) in index.references.enumerated() {
            if let why = r.problem() { throw bad("references[\(i)]: \(why)") }
        }
        let ids = index.references.map(\.id)
        guard Set(ids).count == ids.count else { throw bad("two references share an id") }
        guard index.nextID > (ids.max() ?? 0) else { throw bad("nextID \(index.nextID) would reuse an id") }
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

    public func list() throws -> [Reference] { try load().references }

    /// The files of the store: the list, its lock and every thumbnail there is.
    public var files: [String] {
        let thumbnails = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return [indexURL.path, lockPath] + thumbnails.map { folder.appendingPathComponent($0).path }
    }

    /// The embeddings identity is judged against.
    public func embeddings() throws -> [Embedding] { try list().map(\.embedding) }

    /// Stores `reference` under the next free id, with its aligned crop as a PNG thumbnail.
    /// `check` sees the references already stored and throws to refuse: it runs under the lock,
    /// so two adds at once cannot both pass it against a list that lacks the other.
    @discardableResult
    public func add(_ reference: Reference, thumbnailPNG: [UInt8], check: ([Reference]) throws -> Void) throws -> Reference {
        try change { index in
            guard index.references.count < Self.maxReferences else {
                throw GlimtError("already \(Self.maxReferences) references, the most glimt keeps; remove one first (glimt-pure reference remove ID)",
                                 path: reference.photo)
            }
            try check(index.references)
            var r = reference
            r.id = index.nextID
            r.thumbnail = "reference-\(r.id).png"
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(thumbnailPNG, to: folder.appendingPathComponent(r.thumbnail).path)
            index.references.append(r)
            index.nextID += 1
            return r
        }
    }

    public func remove(id: Int) throws -> Reference {
        let removed: Reference = try change { index in
            guard let i = index.references.firstIndex(where: { $0.id == id }) else {
                throw GlimtError("no reference with ID \(id) (see: glimt-pure reference list)")
            }
            return index.references.remove(at: i)
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(removed.thumbnail))
        return removed
    }
}
