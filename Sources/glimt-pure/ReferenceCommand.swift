import Foundation
import GlimtPure

struct ReferenceCommand: Command {
    static let name = "reference"
    static let summary = "Add, list or remove the reference photos of the person to look for"
    static let usage = ["reference add PHOTO [--face N] [--force]", "reference list [--json]", "reference remove ID"]
    static let about = """
    References are photos of the person the film is about (up to \(ReferenceStore.maxReferences)): a face in a video
    counts as them when it resembles any one reference closely enough. Several photos (a profile,
    last winter's face) help: children change fast.

    'add' finds the faces in PHOTO. With one face it is taken; with several, say which with
    --face N (numbers as 'glimt-pure faces PHOTO' prints them): glimt never guesses. Without
    --face, the faces are listed and a numbered contact sheet is written to the library (exit 2).
    Each reference keeps the embedding of the aligned face as it is and mirrored, averaged,
    and a 112x112 thumbnail. The same face twice is refused; a face that resembles none of the
    other references is probably someone else, and is taken only with --force.
    """
    static let options: [OptionSpec] = [
        .value("--face", "N", "Which face of PHOTO (1 = highest detector score)"),
        .flag("--force", "Add a face that resembles none of the other references"),
        .flag("--json", "For 'list': print JSON"),
        FacesCommand.detectSize.spec,
        CommonOptions.library,
    ]

    static func run(_ args: Arguments) throws -> Int32 {
        switch args.positionals.first {
        case "add":
            guard args.positionals.count == 2 else { throw UsageError("'reference add' takes one PHOTO") }
            let detectionSize = try FacesCommand.detectSize.value(args)
            let face = try args.count("--face", range: 1...10_000)
            let r = try References.add(photo: args.positionals[1], faceNumber: face, library: try AnalysisArguments.library(args), detectionSize: detectionSize,
                                       force: args.flag("--force"))
            Console.out("added reference \(r.id): face \(r.face) of \(ShownPath.escaped(r.photo)) (quality \(String(format: "%.2f", r.quality)))")
            return ExitStatus.done
        case "list":
            let library = try AnalysisArguments.library(args)
            try LibraryFolder.existing(library, madeBy: "add a reference to it first: glimt-pure reference add PHOTO")
            let refs = try ReferenceStore(library: library).list()
            if args.flag("--json") {
                try Console.json(refs)
            } else if refs.isEmpty {
                Console.out("no references in \(ShownPath.escaped(library.path)) (add one: glimt-pure reference add PHOTO)")
            } else {
                for r in refs {
                    Console.out(String(format: "%3d  ", r.id) + "face \(r.face) of \(ShownPath.escaped(r.photo))  quality " + String(format: "%.2f", r.quality) + "  added \(r.added)")
                }
            }
            return ExitStatus.done
        case "remove":
            guard args.positionals.count == 2, let id = Int(args.positionals[1]) else { throw UsageError("'reference remove' takes one ID (see: glimt-pure reference list)") }
            let r = try ReferenceStore(library: try AnalysisArguments.library(args)).remove(id: id)
            Console.out("removed reference \(r.id) (face \(r.face) of \(ShownPath.escaped(r.photo)))")
            return ExitStatus.done
        default:
            throw UsageError("'reference' needs add, list or remove (see: glimt-pure help reference)")
        }
    }
}
