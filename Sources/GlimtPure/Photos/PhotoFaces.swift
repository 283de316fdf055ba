import Analysis
import Film
import Foundation
import GlimtCore
import Imaging
import Library

/// `glimt-pure faces`: every face of a photo, numbered, with its best match among the
/// references (judged by the run's thresholds) and an optional contact sheet.
public struct PhotoFaces: Sendable {
    public struct Match: Codable, Sendable {
        public let reference: Int
        public let cosine: Float
        public let samePerson: Bool
    }

    public struct Face: Sendable {
        /// 1-based, highest detector score first: what `reference add --face N` takes.
        public let number: Int
        public let record: FaceRecord
        public let match: Match?
    }

    public let file: String
    public let width: Int
    public let height: Int
    public let faces: [Face]
    /// Where the contact sheet was written.
    public let sheet: String?

    /// Faces of `photo`. With `references`, each face is embedded and matched; `sheet` (JPEG or
    /// PNG by its extension) gets the photo with every face outlined and numbered, and the faces
    /// judged the same person in green, labelled with their reference. The sheet is checked
    /// before the photo is decoded: an existing file is replaced only with `overwrite`, and never
    /// when it is the photo or a reference's.
    public static func find(
        in photo: String, detectionSize: Int = FaceModels.standardDetectionSize, embed: Bool, references: [Reference],
        thresholds: Identity.Thresholds = .standard, sheet: String? = nil, overwrite: Bool = false
    ) throws -> PhotoFaces {
        if let sheet {
            try OutputFile.check(sheet, extensions: StillImage.extensions, what: "the sheet", overwrite: overwrite)
            var reads = ReadFiles()
            reads.add([photo], as: "the photo the sheet is drawn from")
            reads.add(references.map(\.photo), as: "a reference photo")
            try reads.check(sheet, option: "--sheet")
        }
        var models = try FaceModels.load()
        models.detectionSize = detectionSize
        let image = try Photo.picture(photo)
        let records = models.faces(in: image, embed: embed || !references.isEmpty)
        let faces = records.enumerated().map { i, r in
            Face(
                number: i + 1, record: r,
                match: r.embedding.flatMap { e in
                    references.map { (id: $0.id, cosine: e.cosine($0.embedding)) }.max { $0.cosine < $1.cosine }.map {
                        Match(reference: $0.id, cosine: $0.cosine, samePerson: Identity.isMatch($0.cosine, thresholds: thresholds))
                    }
                })
        }
        if let sheet {
            let marks = faces.map { f in
                f.match.flatMap { $0.samePerson ? ContactSheet.Mark(color: .green, label: "\(f.number) ref \($0.reference)") : nil }
                    ?? .numbered(f.number)
            }
            let drawn = ContactSheet.draw(image, faces: records.map(\.face), marks: marks)
            try StillImage.write(drawn, to: sheet)
        }
        return PhotoFaces(file: photo, width: image.width, height: image.height, faces: faces, sheet: sheet)
    }

    /// `OUT.jpg` + `photo.png` -> `OUT-photo.jpg`, for sheets of several photos.
    public static func sheetName(forPhoto photo: String, base: String) -> String {
        let b = URL(fileURLWithPath: base)
        let name = URL(fileURLWithPath: photo).deletingPathExtension().lastPathComponent
        return b.deletingPathExtension().path + "-\(name)." + (b.pathExtension.isEmpty ? "jpg" : b.pathExtension)
    }
}
