import Foundation
import GlimtPure

struct ReferenceCommand: Command {
    static let name = "reference"
    static let summary = "Add, list or remove the reference photos of the people to look for"
    static let usage = [
        "reference add PHOTO [--face N] [--person NAME [--new]] [--force]", "reference add --from-library N [--person NAME] [--force]",
        "reference list [--person NAME] [--json]", "reference remove N [--person NAME]",
        "reference suggest [--person NAME] [--sheet OUT.jpg]",
    ]
    static let about = """
        References are photos of a person the film is about (up to \(ReferenceStore.maxReferences) each): a face in a
        video counts as them when it resembles any one of their references closely enough, and more
        than anyone else's. Several photos (a profile, last winter's face) help: children change fast.
        A library knows several people (siblings, say), each by name; 'glimt-pure people' lists them.

        'add' finds the faces in PHOTO. With one face it is taken; with several, say which with
        --face N (numbers as 'glimt-pure faces PHOTO' prints them): glimt never guesses. Without
        --face, the faces are listed and a numbered contact sheet is written to the library (exit 2).
        --person NAME says whose reference it is, and creates the person on first use, saying 'new
        person NAME'; a name a letter or two from a person's is taken for a typo of it, unless --new
        says it is a new person ('everyone' is the whole family's word, no person's name). Without
        it, a library of one person adds to them, an empty one creates '\(ReferenceStore.firstPersonName)'
        (rename with 'glimt-pure people rename'). A person's references are numbered 1 to \(ReferenceStore.maxReferences), as
        'list' shows them and 'remove' takes them. Each reference keeps the embedding of the aligned
        face as it is and mirrored, averaged, and a 112x112 thumbnail. The same face twice is
        refused; a face that resembles none of the person's other references is probably someone
        else, and one that looks more like another person is refused naming them: both are taken
        only with --force. A face the detector is unsure of (a score under \(String(format: "%.2f", References.lowDetectionScore))) is added, with a
        word that it is perhaps no face.

        'suggest' proposes up to \(ReferenceSuggestions.count) faces from the scanned videos that are the person beyond doubt
        (cosine \(String(format: "%.2f", ReferenceSuggestions.minCosine)) or more, and theirs by the one-face-one-person rule), one a month, from the
        months farthest from their references: children change fast, and last year's photo stops
        matching. --sheet draws them numbered; 'add --from-library N' takes suggestion N.
        """
    static let subcommands = ["add", "list", "remove", "suggest"]
    struct Options: OptionGroup {
        let face = OptionalNumberOption<Int>("--face", "N", range: 1...10_000, "Which face of PHOTO (1 = highest detector score)")
        let newPerson = FlagOption("--new", "For 'add': --person NAME is a new person, even with a name close to a person's")
        let fromLibrary = OptionalNumberOption<Int>(
            "--from-library", "N", range: 1...1000, "For 'add': suggestion N of the last 'reference suggest' instead of a photo")
        let sheet = TextOption("--sheet", "OUT.jpg", completion: .file, "For 'suggest': draw the suggested faces, numbered (JPEG or PNG by the name)")
        let overwrite = SharedOptions.overwrite
        let person = SharedOptions.person
        let force = FlagOption("--force", "Add a face that resembles none of the person's other references, or another person more")
        let json = FlagOption("--json", "For 'list': print JSON")
        let detectSize = SharedOptions.detectSize
        let library = SharedOptions.library
    }

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        let library = try args.value(\.library)
        let store = ReferenceStore(library: library)
        let person = args.value(\.person)
        switch args.positionals.first {
        case "add":
            let r: Reference, owner: Person
            let known = try store.people()
            if let n = try args.value(\.fromLibrary) {
                guard args.positionals.count == 1 else { throw UsageError("'reference add --from-library N' takes no PHOTO") }
                try args.refuse([\.newPerson], because: "is for a photo: a suggestion is of a person the library knows")
                (r, owner) = try ReferenceSuggestions.add(number: n, person: person, library: library, force: args.flag(\.force))
            } else {
                guard args.positionals.count == 2 else { throw UsageError("'reference add' takes one PHOTO (or --from-library N)") }
                if args.flag(\.newPerson) && person == nil { throw UsageError("--new names a new person: give it with --person NAME") }
                let detectionSize = try args.value(\.detectSize)
                let face = try args.value(\.face)
                (r, owner) = try References.add(
                    photo: args.positionals[1], faceNumber: face, person: person, library: library,
                    detectionSize: detectionSize, force: args.flag(\.force), newPerson: args.flag(\.newPerson))
            }
            if !known.contains(where: { $0.id == owner.id }) { Console.out("new person \(owner.name)") }
            var line =
                "added reference \(r.number) of \(owner.name): face \(r.face) of \(ShownPath.escaped(r.photo)) (quality \(String(format: "%.2f", r.quality))"
            if let score = r.score, score < References.lowDetectionScore {
                line +=
                    String(format: "; detection score %.2f, low: perhaps not a face; 'glimt-pure reference remove %d --person ", score, r.number)
                    + owner.name + "' takes it back"
            }
            Console.out(line + ")")
            return ExitStatus.done
        case "list":
            try LibraryFolder.existing(library, madeBy: "add a reference to it first: glimt-pure reference add PHOTO --person NAME")
            var people = try store.people()
            if let person { people = [try People.choose(person, in: people)!] }
            if args.flag(\.json) {
                let encoder = JSONOutput.encoder(pretty: false)
                var listed: [[String: Any]] = []
                for p in people {
                    for r in p.references {
                        var entry = try JSONSerialization.jsonObject(with: encoder.encode(r)) as! [String: Any]
                        entry["person"] = p.name
                        listed.append(entry)
                    }
                }
                Console.outJSON(
                    String(
                        decoding: try JSONSerialization.data(
                            withJSONObject: listed, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
                        as: UTF8.self))
            } else if people.allSatisfy({ $0.references.isEmpty }) {
                Console.out("no references in \(ShownPath.escaped(library.path)) (add one: glimt-pure reference add PHOTO --person NAME)")
            } else {
                for p in people {
                    Console.out("\(p.name):")
                    for r in p.references {
                        Console.out(
                            String(format: "%5d  ", r.number) + "face \(r.face) of \(ShownPath.escaped(r.photo))  quality "
                                + String(format: "%.2f", r.quality) + "  added \(r.added)")
                    }
                }
            }
            return ExitStatus.done
        case "remove":
            guard args.positionals.count == 2, let number = Int(args.positionals[1]) else {
                throw UsageError("'reference remove' takes one N, as 'glimt-pure reference list' numbers a person's references")
            }
            guard let owner = try People.choose(person, in: store.people()) else {
                throw GlimtError("the library has no references (see: glimt-pure reference list)")
            }
            let (r, _) = try store.remove(number: number, person: owner.name)
            Console.out("removed reference \(r.number) of \(owner.name) (face \(r.face) of \(ShownPath.escaped(r.photo)))")
            return ExitStatus.done
        case "suggest":
            guard args.positionals.count == 1 else { throw UsageError("'reference suggest' takes no argument") }
            let output = args.value(\.sheet)
            if let output { try ReferenceSuggestions.checkSheet(output, overwrite: args.flag(\.overwrite)) }
            let suggestions = try ReferenceSuggestions.suggest(person: person, library: library)
            guard !suggestions.isEmpty else {
                Console.out(
                    "no face of the library is clearly \(person ?? "the person") (cosine \(String(format: "%.2f", ReferenceSuggestions.minCosine)) or more, at least \(Int(ReferenceSuggestions.minFaceHeight)) pixels high)"
                )
                return ExitStatus.done
            }
            for s in suggestions {
                Console.out(
                    String(format: "%3d  ", s.number) + "\(s.day)  \(ShownPath.escaped(s.video)) at "
                        + String(format: "%.2f s  cosine %.2f", s.time, s.cosine))
            }
            if let output {
                try ReferenceSuggestions.sheet(suggestions, to: output)
                Console.out("wrote \(output)")
            }
            Console.out("add one: glimt-pure reference add --from-library N --person \(suggestions[0].person)")
            return ExitStatus.done
        default:
            throw UsageError("'reference' needs add, list, remove or suggest (see: glimt-pure help reference)")
        }
    }
}
