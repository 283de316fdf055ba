import Analysis
import Film
import Foundation
import GlimtCore
import Imaging
import Library

/// References that grow with the person: faces from the library that are confidently a person,
/// from the months farthest from their references (a reference from last year stops matching
/// as a child grows up), to be added with `reference add --from-library N`.
public enum ReferenceSuggestions {
    /// One face of a library video, numbered as the sheet shows it.
    public struct Suggestion: Codable, Equatable, Sendable {
        public var number: Int
        public var person: String
        public var video: String
        public var contentKey: String
        public var day: String
        /// Where in the video, and the face's box in its upright pixels.
        public var time: Double
        public var box: Box
        /// Its cosine with the person's references, and its face quality.
        public var cosine: Float
        public var quality: Float
    }

    /// Well above the strong threshold: a face that is the person beyond doubt.
    public static let minCosine = Identity.Thresholds.standard.strong + FaceAssignment.margin
    /// Faces smaller than this (in video pixels) make poor references.
    public static let minFaceHeight: Float = 64
    public static let minQuality: Float = 0.5
    public static let count = 5

    static func file(_ library: URL) -> URL { library.appendingPathComponent("suggestions.json") }

    /// Up to `count` faces of `name` from the library, at most one a month, the months farthest
    /// from the person's references first; each face counts for them by the one-face-one-person
    /// rule and measures at least `minCosine`. Kept in the library for `add(number:)`.
    public static func suggest(person name: String?, library: URL) throws -> [Suggestion] {
        let people = try ReferenceStore(library: library).people()
        guard let person = try People.choose(name, in: people) else {
            throw GlimtError("the library knows no one yet (add a person: glimt-pure reference add PHOTO --person NAME)")
        }
        let store = try LibraryStore(library: library, creating: false)
        let judgement = LookFor(people: people, person: people.firstIndex { $0.id == person.id }).judgement(Judgement.Rules())
        // The best face of each month.
        var best: [String: Suggestion] = [:]
        for day in try store.days() {
            for video in try store.videos(onDay: day) {
                for frame in video.frames {
                    for (i, cosine) in judgement.cosines(frame).enumerated() {
                        let face = frame.faces[i]
                        // A followed face's cosine is its source's: the source is the one to suggest.
                        guard let cosine, !face.borrowed, cosine >= minCosine, face.box.height >= minFaceHeight, face.quality >= minQuality else {
                            continue
                        }
                        let s = Suggestion(
                            number: 0, person: person.name, video: video.path, contentKey: video.contentKey, day: day, time: frame.time,
                            box: face.box, cosine: cosine, quality: face.quality)
                        let month = String(day.prefix(7))
                        if let b = best[month], b.cosine * b.quality >= cosine * face.quality { continue }
                        best[month] = s
                    }
                }
            }
        }
        let referenceMonths = person.references.compactMap { monthIndex(takenDay($0)) }
        func distance(_ month: String) -> Int {
            guard let m = monthIndex(month + "-01") else { return 0 }
            return referenceMonths.map { abs($0 - m) }.min() ?? Int.max
        }
        let chosen = best.keys.sorted { (distance($0), $1) > (distance($1), $0) }.prefix(count).enumerated().map { k, month in
            var s = best[month]!
            s.number = k + 1
            return s
        }
        try JSONFile.write(Array(chosen), to: file(library).path)
        return Array(chosen)
    }

    /// The day a reference's face was photographed: its EXIF time or video day, else the day its
    /// photo was last changed, else the day it was added.
    static func takenDay(_ r: Reference) -> String {
        if let taken = r.taken { return String(taken.prefix(10)) }
        if let status = try? FileStatus(r.photo) {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withFullDate]
            return f.string(from: status.modified)
        }
        return String(r.added.prefix(10))
    }

    /// Months since year 0 of `YYYY-MM-DD`.
    static func monthIndex(_ day: String) -> Int? {
        guard CalendarDay.parse(String(day.prefix(10))) != nil, let y = Int(day.prefix(4)), let m = Int(day.dropFirst(5).prefix(2)) else {
            return nil
        }
        return y * 12 + m - 1
    }

    /// What the sheet must be, checked before the library is read.
    public static func checkSheet(_ path: String, overwrite: Bool) throws {
        try OutputFile.check(path, extensions: StillImage.extensions, what: "the sheet", overwrite: overwrite)
    }

    /// The suggestions' faces side by side, numbered, with their day: JPEG or PNG by name.
    public static func sheet(_ suggestions: [Suggestion], to path: String) throws {
        let side = 200, gap = 16, label = 40
        var sheet = RGBImage(
            width: gap + suggestions.count * (side + gap), height: 2 * gap + side + label,
            fill: (SheetStyle.background.r, SheetStyle.background.g, SheetStyle.background.b))
        for (k, s) in suggestions.enumerated() {
            let frame = try StillFrame.at(s.time, in: s.video)
            let margin = s.box.height * 0.4
            let focus = Box(x: s.box.x - margin, y: s.box.y - margin, width: s.box.width + 2 * margin, height: s.box.height + 2 * margin)
            let x = gap + k * (side + gap)
            sheet.paste(Resize.filling(frame, width: side, height: side, around: focus), x: x, y: gap)
            sheet.label(String(s.number), x: x + 4, y: gap + 4, scale: 3)
            sheet.text(s.day, x: x, y: gap + side + 10, scale: 2, SheetStyle.text)
        }
        try StillImage.write(sheet, to: path)
    }

    /// Suggestion `number` of the last `suggest` as a reference of its person (or of `person`):
    /// the face found again in its frame, aligned and embedded as a photo's would be, and checked
    /// like any new reference.
    public static func add(number: Int, person: String?, library: URL, force: Bool) throws -> (reference: Reference, person: Person) {
        let path = file(library).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw GlimtError("no suggestions in this library yet (glimt-pure reference suggest --person NAME)")
        }
        let all = try JSONFile.read([Suggestion].self, from: path, what: "a list of reference suggestions")
        guard let s = all.first(where: { $0.number == number }) else {
            throw GlimtError("there is no suggestion \(number) (the last 'reference suggest' made \(all.count))", path: path)
        }
        let frame = try StillFrame.at(s.time, in: s.video)
        let models = try FaceModels.load()
        let faces = models.faces(in: frame, embed: false)
        guard
            let (i, face) = faces.enumerated().map({ ($0.offset, $0.element) }).max(by: {
                $0.1.face.box.intersectionOverUnion(s.box) < $1.1.face.box.intersectionOverUnion(s.box)
            }),
            face.face.box.intersectionOverUnion(s.box) >= 0.3
        else {
            throw GlimtError(
                String(format: "the face of suggestion %d is no longer at %.2f s (has the video changed? scan again)", number, s.time), path: s.video)
        }
        let reference = Reference(
            id: 0, photo: s.video, face: i + 1, box: face.face.box, landmarks: face.face.landmarks, quality: face.quality.value,
            embedding: models.referenceEmbedding(face.crop), thumbnail: "", added: ISO8601DateFormatter().string(from: Date()),
            taken: s.day, time: s.time)
        return try References.store(reference, thumbnail: face.crop, person: person ?? s.person, library: library, force: force)
    }
}
