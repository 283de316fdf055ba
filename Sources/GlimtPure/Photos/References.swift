import Analysis
import Film
import Foundation
import GlimtCore
import Imaging
import Library

/// The photo has several faces and no face was named: glimt never guesses "the biggest one".
/// Part of the error family (see `GlimtError`): the CLI lists the faces and exits 2.
public struct AmbiguousFaceError: Error, CustomStringConvertible {
    public let photo: String
    public let faces: [FaceRecord]
    /// Where the numbered contact sheet was written.
    public let sheet: String
    /// How the person names one: `--face N` when adding a reference, `PHOTO:N` for `--ref`.
    public var choice = "--face N"

    public var description: String {
        "\(ShownPath.escaped(photo)): has \(faces.count) faces; choose one with \(choice) (numbered on \(ShownPath.escaped(sheet)))"
    }
}

/// Reference photos: from a photo to a reference, stored or for one run.
public enum References {
    /// A reference from face `faceNumber` (1-based) of `photo`, not stored anywhere. With several
    /// faces and no number, writes a numbered contact sheet into `sheetFolder` and throws
    /// `AmbiguousFaceError`. Returns the aligned crop too, for the thumbnail.
    public static func make(photo: String, faceNumber: Int?, models: FaceModels, id: Int, sheetFolder: URL) throws -> (Reference, RGBImage) {
        let look = try Photo(path: photo)
        let (image, taken) = (look.image, look.taken)
        let faces = models.faces(in: image, embed: false)
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
            try StillImage.writeJPEG(ContactSheet.draw(image, faces: faces.map(\.face)), to: sheet.path)
            throw AmbiguousFaceError(photo: photo, faces: faces, sheet: sheet.path)
        }
        let chosen = faces[number - 1]
        let reference = Reference(
            id: id, photo: URL(fileURLWithPath: photo).standardizedFileURL.path, face: number, box: chosen.face.box,
            landmarks: chosen.face.landmarks, quality: chosen.quality.value,
            embedding: models.referenceEmbedding(chosen.crop), thumbnail: "reference-\(id).png",
            added: ISO8601DateFormatter().string(from: Date()), taken: taken, score: chosen.face.score)
        return (reference, chosen.crop)
    }

    /// From this cosine up, a new reference is a face already stored: a resized copy or a crop of
    /// one photo measured 0.97-0.99 against it, different photos of one person 0.63-0.84. Set
    /// high because --force cannot overrule it: a duplicate let through only wastes a slot.
    static let sameFace: Float = 0.95

    /// Under this detection score a face is perhaps no face at all, and `reference add` says so
    /// (it still adds it: the person chose it). Measured on the 156 detections of the shared
    /// photos and the photo fixtures: the four that are no face (a painting of a lake behind
    /// Biden in biden2, at two sizes) score 0.63, 0.69, 0.71 and 0.78; every real face of 60
    /// pixels or more scores 0.81 or more (0.87 and up but for one cut by the picture's edge);
    /// the real faces under 0.80 are 11-15 pixel faces of the Solvay photo shrunk to 320 pixels
    /// and 55-pixel photos that are all face, both poor references anyway.
    public static let lowDetectionScore: Float = 0.80

    /// `reference add`: face `faceNumber` of `photo` into the library's store, as a reference of
    /// the person `person` (created on first use unless the name is a typo of a person's, see
    /// `ReferenceStore.add`, which `newPerson` overrules; nil: the library's one person, or its first).
    /// The same face twice is refused; unless `force`, so is a face that resembles none of the
    /// person's other references (probably someone else) and a face closer to another person's
    /// references than to this person's. All are judged under the store's lock, against the
    /// list as it is when written.
    @discardableResult
    public static func add(
        photo: String, faceNumber: Int?, person: String?, library: URL, detectionSize: Int, force: Bool,
        newPerson: Bool = false
    ) throws -> (reference: Reference, person: Person) {
        var models = try FaceModels.load()
        models.detectionSize = detectionSize
        let (reference, crop) = try make(
            photo: photo, faceNumber: faceNumber, models: models, id: 0,
            sheetFolder: library.appendingPathComponent("sheets", isDirectory: true))
        return try store(reference, thumbnail: crop, person: person, library: library, force: force, newPerson: newPerson)
    }

    /// Stores a reference made elsewhere (a photo's face, a face from the library) after the checks.
    static func store(
        _ reference: Reference, thumbnail: RGBImage, person: String?, library: URL, force: Bool,
        newPerson: Bool = false
    ) throws -> (reference: Reference, person: Person) {
        let store = ReferenceStore(library: library)
        let name = try person ?? People.choose(nil, in: store.people()).map(\.name) ?? ReferenceStore.firstPersonName
        return try store.add(reference, to: name, newPerson: newPerson, thumbnailPNG: try StillImage.pngData(thumbnail)) { own, others in
            try check(reference, person: own, named: name, others: others, force: force)
        }
    }

    /// Throws when `new` is already a reference of anyone, or, unless `force`, when it matches
    /// none of its person's references or resembles another person more. A new person's first
    /// reference defines them, so only the others are checked.
    static func check(_ new: Reference, person: Person?, named name: String, others: [Person], force: Bool) throws {
        let everyone = (person.map { [$0] } ?? []) + others
        for p in everyone {
            if let same = p.references.first(where: { $0.photo == new.photo && $0.face == new.face }) {
                throw GlimtError("face \(new.face) is already reference \(same.number) of \(p.name)", path: new.photo)
            }
        }
        func best(_ p: Person) -> (reference: Reference, cosine: Float)? {
            p.references.map { ($0, new.embedding.cosine($0.embedding)) }.max { $0.1 < $1.1 }
        }
        for p in everyone {
            if let b = best(p), b.cosine >= sameFace {
                throw GlimtError(
                    "face \(new.face) is the same face as reference \(b.reference.number) of \(p.name) (cosine \(String(format: "%.2f", b.cosine)); face \(b.reference.face) of \(b.reference.photo))",
                    path: new.photo)
            }
        }
        guard !force else { return }
        let match = Identity.Thresholds.standard.match
        let own = person.flatMap(best)
        // Closer to someone else than to this person (or, for a new person, like someone known):
        // a sibling's photo added to the wrong child.
        if let other = others.compactMap({ p in best(p).map { (person: p, best: $0) } }).max(by: { $0.best.cosine < $1.best.cosine }),
            other.best.cosine >= match, other.best.cosine > own?.cosine ?? -1
        {
            throw GlimtError(
                "face \(new.face) looks more like \(other.person.name) (cosine \(String(format: "%.2f", other.best.cosine)) with their reference \(other.best.reference.number)"
                    + (own.map { String(format: ", %.2f", $0.cosine) + " with \(name)'s" } ?? "") + "); add --force if it really is \(name)",
                path: new.photo)
        }
        if let own, own.cosine < match {
            throw GlimtError(
                "face \(new.face) resembles none of \(name)'s references, so it is probably someone else (best cosine \(String(format: "%.2f", own.cosine)), with reference \(own.reference.number); "
                    + "the same person measures \(String(format: "%.2f", match)) or more); add --force if it really is \(name)",
                path: new.photo)
        }
    }

    /// Which references a run judges identity against.
    public enum Choice: Sendable {
        /// None: the best-looking second with a clear face.
        case none
        /// The library's stored references of one person (nil: the library's only person).
        case stored(library: URL, person: String?)
        /// `PHOTO[:FACE]` photos, for this run only (never stored).
        case photos([String])
        /// Every person of the library together: the family film.
        case everyone(library: URL)
    }

    /// Who a run looks for, from the choice: the person judged and everyone they must be told
    /// apart from (a library's other people; no one else for photos given for one run).
    public static func resolve(_ choice: Choice) throws -> LookFor {
        if case .photos = choice { return try resolve(choice, models: try FaceModels.load()) }
        return try resolve(choice, models: nil)
    }

    static func resolve(_ choice: Choice, models: FaceModels?) throws -> LookFor {
        switch choice {
        case .none:
            return .noOne
        case .everyone(let library):
            let people = try ReferenceStore(library: library).people().filter { !$0.references.isEmpty }
            guard !people.isEmpty else {
                throw GlimtError("the library knows no one yet (add a person: glimt-pure reference add PHOTO --person NAME)")
            }
            return .everyone(people)
        case .stored(let library, let name):
            let people = try ReferenceStore(library: library).people()
            guard let person = try People.choose(name, in: people) else { return .noOne }
            return LookFor(people: people, person: people.firstIndex { $0.id == person.id })
        case .photos(let specs):
            guard specs.count <= ReferenceStore.maxReferences else {
                throw GlimtError("\(specs.count) references given; glimt uses at most \(ReferenceStore.maxReferences)")
            }
            let sheets = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-sheets", isDirectory: true)
            let references = try specs.enumerated().map { i, spec in
                let (path, face) = parse(spec)
                do {
                    return try make(photo: path, faceNumber: face, models: models ?? FaceModels.load(), id: i + 1, sheetFolder: sheets).0
                } catch var e as AmbiguousFaceError {
                    e.choice = "\(e.photo):N"
                    throw e
                }
            }
            return LookFor(people: [Person(id: 0, name: "the person of --ref", references: references)], person: 0)
        }
    }

    /// `photo.jpg:2` -> ("photo.jpg", 2); a path whose part after the last ':' is not a number is
    /// taken whole.
    public static func parse(_ spec: String) -> (path: String, face: Int?) {
        if let colon = spec.lastIndex(of: ":"), let n = Int(spec[spec.index(after: colon)...]), n > 0,
            !FileManager.default.fileExists(atPath: spec)
        {
            return (String(spec[..<colon]), n)
        }
        return (spec, nil)
    }
}
