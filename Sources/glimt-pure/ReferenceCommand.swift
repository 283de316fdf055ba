import Foundation
import GlimtPure

struct ReferenceCommand: Command {
    static let name = "reference"
    static let summary = "Add, list or remove the reference photos of the people to look for"
    static let usage = ["reference add PHOTO [--face N] [--person NAME] [--force]", "reference list [--person NAME] [--json]",
                        "reference remove ID [--person NAME]"]
    static let about = """
    References are photos of a person the film is about (up to \(ReferenceStore.maxReferences) each): a face in a
    video counts as them when it resembles any one of their references closely enough, and more
    than anyone else's. Several photos (a profile, last winter's face) help: children change fast.
    A library knows several people (siblings, say), each by name; 'glimt-pure people' lists them.

    'add' finds the faces in PHOTO. With one face it is taken; with several, say which with
    --face N (numbers as 'glimt-pure faces PHOTO' prints them): glimt never guesses. Without
    --face, the faces are listed and a numbered contact sheet is written to the library (exit 2).
    --person NAME says whose reference it is, and creates the person on first use; without it,
    a library of one person adds to them, an empty one creates '\(ReferenceStore.firstPersonName)'
    (rename with 'glimt-pure people rename'). Each reference keeps the embedding of the aligned
    face as it is and mirrored, averaged, and a 112x112 thumbnail. The same face twice is
    refused; a face that resembles none of the person's other references is probably someone
    else, and one that looks more like another person is refused naming them: both are taken
    only with --force.
    """
    static let subcommands = ["add", "list", "remove"]
    static let options: [OptionSpec] = [
        .value("--face", "N", "Which face of PHOTO (1 = highest detector score)"),
        CommonOptions.person,
        .flag("--force", "Add a face that resembles none of the person's other references, or another person more"),
        .flag("--json", "For 'list': print JSON"),
        FacesCommand.detectSize.spec,
        CommonOptions.library,
    ]

    static func run(_ args: Arguments) throws -> Int32 {
        let library = LibraryLocation.resolve(args.value("--library"))
        let store = ReferenceStore(library: library)
        let person = args.value(CommonOptions.person.name)
        switch args.positionals.first {
        case "add":
            guard args.positionals.count == 2 else { throw UsageError("'reference add' takes one PHOTO") }
            let detectionSize = try FacesCommand.detectSize.value(args)
            let face = try args.count("--face", range: 1...10_000)
            let (r, owner) = try References.add(photo: args.positionals[1], faceNumber: face, person: person, library: library,
                                                detectionSize: detectionSize, force: args.flag("--force"))
            Console.out("added reference \(r.id) of \(owner.name): face \(r.face) of \(ShownPath.escaped(r.photo)) (quality \(String(format: "%.2f", r.quality)))")
            return ExitStatus.done
        case "list":
            var people = try store.people()
            if let person { people = [try People.choose(person, in: people)!] }
            if args.flag("--json") {
                let encoder = JSONEncoder()
                var listed: [[String: Any]] = []
                for p in people {
                    for r in p.references {
                        var entry = try JSONSerialization.jsonObject(with: encoder.encode(r)) as! [String: Any]
                        entry["person"] = p.name
                        listed.append(entry)
                    }
                }
                Console.outJSON(String(decoding: try JSONSerialization.data(withJSONObject: listed, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
                                       as: UTF8.self))
            } else if people.allSatisfy({ $0.references.isEmpty }) {
                Console.out("no references in \(library.path) (add one: glimt-pure reference add PHOTO --person NAME)")
            } else {
                for p in people {
                    Console.out("\(p.name):")
                    for r in p.references {
                        Console.out(String(format: "%5d  ", r.id) + "face \(r.face) of \(ShownPath.escaped(r.photo))  quality " + String(format: "%.2f", r.quality) + "  added \(r.added)")
                    }
                }
            }
            return ExitStatus.done
        case "remove":
            guard args.positionals.count == 2, let id = Int(args.positionals[1]) else { throw UsageError("'reference remove' takes one ID (see: glimt-pure reference list)") }
            let (r, owner) = try store.remove(id: id, person: person)
            Console.out("removed reference \(r.id) of \(owner.name) (face \(r.face) of \(ShownPath.escaped(r.photo)))")
            return ExitStatus.done
        default:
            throw UsageError("'reference' needs add, list or remove (see: glimt-pure help reference)")
        }
    }
}
