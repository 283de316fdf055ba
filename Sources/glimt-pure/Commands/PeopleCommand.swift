import Foundation
import GlimtPure

struct PeopleCommand: Command {
    static let name = "people"
    static let summary = "List the people the library looks for, give one a birthday, rename one, or remove one"
    static let usage = ["people [--json]", "people set NAME --born DAY|none", "people rename OLD NEW", "people remove NAME [-y]"]
    static let about = """
        A library knows several people, each by name and up to \(ReferenceStore.maxReferences) reference photos ('glimt-pure
        reference add PHOTO --person NAME' creates one). One scan serves them all: each person's days
        are judged from the stored faces, and in every frame a face counts for at most one person,
        the one it resembles best, so siblings are told apart. The list shows each person, their
        references, their birthday and how many days of the library they are found on. 'set' gives
        a person their birthday (YYYY-MM-DD; 'none' forgets it), which the film's 'age' and 'date+age'
        captions count from. 'rename' keeps their references, birthday, pins and excluded days;
        'remove' forgets all of them, after asking (or with -y).
        """
    static let subcommands = ["set", "rename", "remove"]
    struct Options: OptionGroup {
        let json = SharedOptions.json
        let born = TextOption("--born", "DAY|none", "For 'set': the person's birthday, YYYY-MM-DD ('none' forgets it)")
        let yes = FlagOption("--yes", short: "-y", "For 'remove': do not ask")
        let library = SharedOptions.library
    }
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        let library = try args.value(\.library)
        if args.positionals.first != "set" { try args.refuse([\.born], because: "is for 'people set NAME --born DAY'") }
        switch args.positionals.first {
        case nil:
            let people = try People.summaries(library: library)
            if args.flag(\.json) {
                try Console.json(people)
            } else if people.isEmpty {
                Console.out("no people in \(library.path) (add one: glimt-pure reference add PHOTO --person NAME)")
            } else {
                for p in people {
                    Console.out(
                        "\(p.name)\(p.born.map { ", born \($0)" } ?? ""): \(p.references.count) reference\(p.references.count == 1 ? "" : "s"), "
                            + "found on \(p.daysFound) of \(p.daysRecorded) days with video or photos")
                    for r in p.references { Console.out(String(format: "%5d  ", r.number) + "face \(r.face) of \(ShownPath.escaped(r.photo))") }
                    if let why = Person(id: p.id, name: p.name, references: []).reservedName { Console.out("  " + why) }
                }
            }
        case "set":
            guard args.positionals.count == 2, let born = args.value(\.born) else {
                throw UsageError("'people set' takes one NAME and --born DAY (YYYY-MM-DD, or none to forget it)")
            }
            if born != "none", let why = Person.problem(born: born) { throw UsageError(why) }
            let p = try ReferenceStore(library: library).setBorn(args.positionals[1], to: born == "none" ? nil : born)
            Console.out(p.born.map { "\(p.name): born \($0)" } ?? "\(p.name): no birthday")
        case "rename":
            guard args.positionals.count == 3 else { throw UsageError("'people rename' takes OLD and NEW names") }
            if let why = Person.problem(newName: args.positionals[2]) { throw UsageError(why) }
            let p = try ReferenceStore(library: library).rename(args.positionals[1], to: args.positionals[2])
            Console.out("renamed \(args.positionals[1]) to \(p.name)")
        case "remove":
            guard args.positionals.count == 2 else { throw UsageError("'people remove' takes one NAME") }
            let name = args.positionals[1]
            // Without the person, `People.remove` still finishes a removal cut short, and says there is no one to remove.
            if let person = try ReferenceStore(library: library).person(named: name), !args.flag(\.yes) {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw UsageError(
                        "removing \(person.name) forgets their \(person.references.count) references, pins and excluded days: add -y to do it without a terminal to ask on"
                    )
                }
                Console.err(
                    "Remove \(person.name) with their \(person.references.count) reference\(person.references.count == 1 ? "" : "s"), pins and excluded days? [y/N] ",
                    newline: false)
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased().trimmingCharacters(in: .whitespaces)) else {
                    Console.out("kept \(person.name)")
                    return ExitStatus.done
                }
            }
            let removed = try People.remove(name, library: library)
            Console.out(
                "removed \(removed.name), their \(removed.references.count) reference\(removed.references.count == 1 ? "" : "s"), pins and excluded days"
            )
        default:
            throw UsageError("'people' takes no argument, or set, rename or remove (see: glimt-pure help people)")
        }
        return ExitStatus.done
    }
}
