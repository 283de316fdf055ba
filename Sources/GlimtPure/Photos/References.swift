import Foundation
import Analysis
import Faces
import GlimtCore
import Imaging
import Library
import MediaIO

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
            embedding: pipeline.referenceEmbedding(chosen.crop), thumbnail: "reference-\(id).png",
            added: ISO8601DateFormatter().string(from: Date()))
        return (reference, chosen.crop)
    }

    /// From this cosine up, a new reference is a face already stored: a resized copy or a crop of
    /// one photo measured 0.97-0.99 against it, different photos of one person 0.63-0.84. Set
    /// high because --force cannot overrule it: a duplicate let through only wastes a slot.
    static let sameFace: Float = 0.95

    /// `reference add`: face `faceNumber` of `photo` into the library's store. The same face twice
    /// is refused, and so is a face that resembles none of the stored references (probably
    /// someone else) unless `force`. Both are judged under the store's lock, against the list as
    /// it is when written.
    @discardableResult
    public static func add(photo: String, faceNumber: Int?, library: URL, detectionSize: Int, force: Bool) throws -> Reference {
        var pipeline = try FacePipeline.shared()
        pipeline.detector.detectionSize = detectionSize
        let (reference, crop) = try make(photo: photo, faceNumber: faceNumber, pipeline: pipeline, id: 0,
                                         sheetFolder: library.appendingPathComponent("sheets", isDirectory: true))
        return try ReferenceStore(library: library).add(reference, thumbnailPNG: try ImageEncoder.pngData(crop)) { stored in
            try check(reference, against: stored, force: force)
        }
    }

    /// Throws when `new` is already among `stored`, or, unless `force`, when it matches none of
    /// them. The first reference is taken as it is: it defines the person.
    static func check(_ new: Reference, against stored: [Reference], force: Bool) throws {
        if let same = stored.first(where: { $0.photo == new.photo && $0.face == new.face }) {
            throw GlimtError("face \(new.face) is already reference \(same.id)", path: new.photo)
        }
        guard let best = stored.map({ (reference: $0, cosine: new.embedding.cosine($0.embedding)) }).max(by: { $0.cosine < $1.cosine }) else { return }
        let cosine = String(format: "%.2f", best.cosine)
        if best.cosine >= sameFace {
            throw GlimtError("face \(new.face) is the same face as reference \(best.reference.id) (cosine \(cosine); face \(best.reference.face) of \(best.reference.photo))",
                             path: new.photo)
        }
        let match = Identity.Thresholds.standard.match
        if !force && best.cosine < match {
            throw GlimtError("face \(new.face) resembles none of the references, so it is probably someone else (best cosine \(cosine), with reference \(best.reference.id); "
                             + "the same person measures \(String(format: "%.2f", match)) or more); add --force if it really is the same person",
                             path: new.photo)
        }
    }

    /// Which references a run judges identity against.
    public enum Choice: Sendable {
        /// None: the best-looking second with a clear face.
        case none
        /// The library's stored references.
        case stored(library: URL)
        /// `PHOTO[:FACE]` photos, for this run only (never stored).
        case photos([String])
    }

    public static func resolve(_ choice: Choice) throws -> [Reference] {
        if case .photos = choice { return try resolve(choice, pipeline: try FacePipeline.shared()) }
        return try resolve(choice, pipeline: nil)
    }

    static func resolve(_ choice: Choice, pipeline: FacePipeline?) throws -> [Reference] {
        switch choice {
        case .none:
            return []
        case .stored(let library):
            return try ReferenceStore(library: library).list()
        case .photos(let specs):
            guard specs.count <= ReferenceStore.maxReferences else {
                throw GlimtError("\(specs.count) references given; glimt uses at most \(ReferenceStore.maxReferences)")
            }
            let sheets = FileManager.default.temporaryDirectory.appendingPathComponent("glimt-sheets", isDirectory: true)
            return try specs.enumerated().map { i, spec in
                let (path, face) = parse(spec)
                do {
                    return try make(photo: path, faceNumber: face, pipeline: pipeline ?? FacePipeline.shared(), id: i + 1, sheetFolder: sheets).0
                } catch var e as AmbiguousFaceError {
                    e.choice = "\(e.photo):N"
                    throw e
                }
            }
        }
    }

    /// `photo.jpg:2` -> ("photo.jpg", 2); a path whose part after the last ':' is not a number is
    /// taken whole.
    public static func parse(_ spec: String) -> (path: String, face: Int?) {
        if let colon = spec.lastIndex(of: ":"), let n = Int(spec[spec.index(after: colon)...]), n > 0,
           !FileManager.default.fileExists(atPath: spec) {
            return (String(spec[..<colon]), n)
        }
        return (spec, nil)
    }
}
