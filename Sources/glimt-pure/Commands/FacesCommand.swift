import Foundation
import GlimtPure

struct FacesCommand: Command {
    static let name = "faces"
    static let summary = "List the faces in photos, numbered; optionally draw them on a contact sheet"
    static let usage = ["faces PHOTO... [--json] [--sheet OUT.jpg] [--embed] [--match] [--detect-size N]"]
    static let about = """
        Finds every face in each PHOTO (JPEG, PNG, WebP, HEIC or AVIF) and
        prints one line per face: its number, box, the five landmarks (right eye, left eye, nose tip,
        right and left mouth corner: the person's right and left), the detector score and the face
        quality (0-1: confidence, size, sharpness and frontalness). Numbers start at 1, highest score
        first: they are what 'glimt-pure reference add PHOTO --face N' takes.
        """
    struct Options: OptionGroup {
        let json = FlagOption("--json", "Print JSON instead of a table")
        let sheet = TextOption(
            "--sheet", "OUT.jpg", completion: .file,
            "Write a contact sheet with each face outlined and numbered, matched faces in green (JPEG or PNG by the extension; with several photos, the photo's name is added to OUT)"
        )
        let overwrite = SharedOptions.overwrite
        let embed = FlagOption("--embed", "Add each face's 128-d SFace embedding (JSON only)")
        let match = FlagOption(
            "--match", "Add each face's best cosine against the stored references (from the match threshold up it counts as the same person)")
        let matchThreshold = IdentityOptions.matchThreshold
        let detectSize = SharedOptions.detectSize
        let library = SharedOptions.library
    }

    struct FaceOut: Encodable {
        let number: Int
        let box: Box
        let landmarks: [Point]
        let score: Float
        let quality: FaceQuality
        let embedding: [Float]?
        let match: MatchOut?
    }

    struct MatchOut: Encodable {
        let reference: Int
        let cosine: Float
        let sameperson: Bool
    }

    struct PhotoOut: Encodable {
        let file: String
        let width: Int
        let height: Int
        let faces: [FaceOut]
        let sheet: String?
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("at least one PHOTO")
        let detectionSize = try args.value(\.detectSize)
        let wantMatch = args.flag(\.match)
        let references = wantMatch ? try ReferenceStore(library: args.value(\.library)).list() : []
        if wantMatch && references.isEmpty { throw UsageError("--match needs stored references (glimt-pure reference add PHOTO)") }
        var thresholds = Identity.Thresholds.standard
        thresholds.match = try args.value(\.matchThreshold)
        var outputs: [PhotoOut] = []
        var failed = false
        for path in args.positionals {
            do {
                let sheet = args.value(\.sheet).map { args.positionals.count == 1 ? $0 : PhotoFaces.sheetName(forPhoto: path, base: $0) }
                let found = try PhotoFaces.find(
                    in: path, detectionSize: detectionSize, embed: args.flag(\.embed), references: references,
                    thresholds: thresholds, sheet: sheet, overwrite: args.flag(\.overwrite))
                let faces = found.faces.map { f in
                    FaceOut(
                        number: f.number, box: f.record.face.box, landmarks: f.record.face.landmarks, score: f.record.face.score,
                        quality: f.record.quality, embedding: args.flag(\.embed) ? f.record.embedding?.values : nil,
                        match: f.match.map { MatchOut(reference: $0.reference, cosine: $0.cosine, sameperson: $0.samePerson) })
                }
                let photo = PhotoOut(file: path, width: found.width, height: found.height, faces: faces, sheet: found.sheet)
                outputs.append(photo)
                if !args.flag(\.json) { printTable(photo) }
            } catch {
                Console.err("glimt-pure faces: \(error)")
                failed = true
            }
        }
        if args.flag(\.json) {
            try Console.json(args.positionals.count == 1 && outputs.count == 1 ? AnyEncodable(outputs[0]) : AnyEncodable(outputs))
        }
        return failed ? 1 : 0
    }

    static func printTable(_ p: PhotoOut) {
        Console.out(
            "\(ShownPath.escaped(p.file)): \(p.width)x\(p.height), \(p.faces.count) face\(p.faces.count == 1 ? "" : "s")\(p.sheet.map { ", sheet \(ShownPath.escaped($0))" } ?? "")"
        )
        guard !p.faces.isEmpty else { return }
        let hasMatch = p.faces.contains { $0.match != nil }
        Console.out(
            "   #  box x,y,w,h           score quality  landmarks (re le nose rm lm)" + (hasMatch ? String(repeating: " ", count: 24) + "match" : ""))
        for f in p.faces {
            let box = "\(Int(f.box.x)),\(Int(f.box.y)),\(Int(f.box.width)),\(Int(f.box.height))"
            let lm = f.landmarks.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }.joined(separator: " ")
            var line =
                String(format: "%4d  ", f.number) + box.padding(toLength: 20, withPad: " ", startingAt: 0)
                + String(format: " %5.2f  %5.2f   ", f.score, f.quality.value) + lm.padding(toLength: 50, withPad: " ", startingAt: 0)
            if let m = f.match { line += String(format: " %.2f ref %d", m.cosine, m.reference) + (m.sameperson ? " (same person)" : "") }
            Console.out(line)
        }
    }
}
