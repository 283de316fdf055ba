import Foundation

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
    public var embedding: [Float]
    /// File name of the aligned 112x112 crop, inside the references folder.
    public var thumbnail: String
    /// ISO 8601 time it was added.
    public var added: String
}

/// The photo has several faces and no face was named: glimt never guesses "the biggest one".
public struct AmbiguousFaceError: Error, CustomStringConvertible {
    public let photo: String
    public let faces: [FaceRecord]
    /// Where the numbered contact sheet was written.
    public let sheet: String

    public var description: String {
        "\(photo): has \(faces.count) faces; choose one with --face N (numbered on \(sheet))"
    }
}

/// Up to five reference faces, kept in `<library>/references.json` with thumbnails in
/// `<library>/references/`. Every change is written atomically.
public final class ReferenceStore {
    public static let maxReferences = 5
    public let library: URL

    public init(library: URL) { self.library = library }

    var indexURL: URL { library.appendingPathComponent("references.json") }
    var folder: URL { library.appendingPathComponent("references", isDirectory: true) }

    private struct Index: Codable {
        var version = 1
        var nextID = 1
        var references: [Reference] = []
    }

    private func load() throws -> Index {
        guard FileManager.default.fileExists(atPath: indexURL.path) else { return Index() }
        do {
            return try JSONDecoder().decode(Index.self, from: Data(contentsOf: indexURL))
        } catch {
            throw GlimtError("reference list is unreadable (\(error.localizedDescription)); move it away to start afresh", path: indexURL.path)
        }
    }

    private func save(_ index: Index) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try enc.encode(index), to: indexURL)
    }

    public func list() throws -> [Reference] { try load().references }

    /// The embeddings identity is judged against.
    public func embeddings() throws -> [[Float]] { try list().map(\.embedding) }

    /// Adds face `faceNumber` (1-based) of `photo`. With several faces and no number, writes a
    /// numbered contact sheet and throws `AmbiguousFaceError`.
    @discardableResult
    public func add(photo: String, faceNumber: Int?, pipeline: FacePipeline) throws -> Reference {
        var index = try load()
        guard index.references.count < Self.maxReferences else {
            throw GlimtError("already \(Self.maxReferences) references, the most glimt keeps; remove one first (glimt-pure reference remove ID)", path: photo)
        }
        let id = index.nextID
        var (reference, crop) = try Reference.make(photo: photo, faceNumber: faceNumber, pipeline: pipeline, id: id,
                                                   sheetFolder: library.appendingPathComponent("sheets", isDirectory: true))
        reference.thumbnail = "reference-\(id).png"
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ImageEncoder.writePNG(crop, to: folder.appendingPathComponent(reference.thumbnail).path)
        index.references.append(reference)
        index.nextID += 1
        try save(index)
        return reference
    }

    public func remove(id: Int) throws -> Reference {
        var index = try load()
        guard let i = index.references.firstIndex(where: { $0.id == id }) else {
            throw GlimtError("no reference with ID \(id) (see: glimt-pure reference list)")
        }
        let removed = index.references.remove(at: i)
        try save(index)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(removed.thumbnail))
        return removed
    }
}

extension Reference {
    /// A reference from face `faceNumber` (1-based) of `photo`, not stored anywhere (for
    /// `--ref PHOTO[:FACE]` and for the store). With several faces and no number, writes a
    /// numbered contact sheet into `sheetFolder` and throws `AmbiguousFaceError`.
    public static func make(photo: String, faceNumber: Int?, pipeline: FacePipeline, id: Int, sheetFolder: URL) throws -> (Reference, RGBImage) {
        let image = try ImageDecoder.decode(path: photo)
        let faces = pipeline.faces(in: image, embed: false)
        guard !faces.isEmpty else { throw GlimtError("no face found", path: photo) }
        let number: Int
        if let faceNumber {
            guard (1...faces.count).contains(faceNumber) else {
                throw GlimtError("has \(faces.count) face\(faces.count == 1 ? "" : "s"); --face \(faceNumber) is not one of them", path: photo)
            }
            number = faceNumber
        } else if faces.count == 1 {
            number = 1
        } else {
            try FileManager.default.createDirectory(at: sheetFolder, withIntermediateDirectories: true)
            let name = URL(fileURLWithPath: photo).deletingPathExtension().lastPathComponent
            let sheet = sheetFolder.appendingPathComponent("\(name)-faces.jpg")
            try ImageEncoder.writeJPEG(ContactSheet.draw(image, faces: faces.map(\.face)), to: sheet.path)
            throw AmbiguousFaceError(photo: photo, faces: faces, sheet: sheet.path)
        }
        let chosen = faces[number - 1]
        let reference = Reference(
            id: id, photo: URL(fileURLWithPath: photo).standardizedFileURL.path, face: number, box: chosen.face.box,
            landmarks: chosen.face.landmarks, quality: chosen.quality.value,
            embedding: pipeline.referenceEmbedding(chosen.crop), thumbnail: "",
            added: ISO8601DateFormatter().string(from: Date()))
        return (reference, chosen.crop)
    }
}

/// Which references a run judges identity against: `--ref PHOTO[:FACE]` photos when given
/// (used for this run only, not stored), else the library's stored references, else none.
public enum ReferenceChoice {
    /// `photo.jpg:2` -> ("photo.jpg", 2); a path whose part after the last ':' is not a number is
    /// taken whole.
    public static func parse(_ spec: String) -> (path: String, face: Int?) {
        if let colon = spec.lastIndex(of: ":"), let n = Int(spec[spec.index(after: colon)...]), n > 0,
           !FileManager.default.fileExists(atPath: spec) {
            return (String(spec[..<colon]), n)
        }
        return (spec, nil)
    }

    public static func resolve(specs: [String], useStored: Bool, library: URL, pipeline: FacePipeline) throws -> [Reference] {
        if !specs.isEmpty {
            guard specs.count <= ReferenceStore.maxReferences else {
                throw GlimtError("\(specs.count) references given; glimt uses at most \(ReferenceStore.maxReferences)")
            }
            let sheets = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-sheets", isDirectory: true)
            return try specs.enumerated().map { i, spec in
                let (path, face) = parse(spec)
                return try Reference.make(photo: path, faceNumber: face, pipeline: pipeline, id: i + 1, sheetFolder: sheets).0
            }
        }
        return useStored ? try ReferenceStore(library: library).list() : []
    }
}
