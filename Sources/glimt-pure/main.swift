import Foundation
import GlimtPure

let toolHelp = """
    glimt-pure \(Glimt.version): one second of every day, made into a film, from the videos you
    already took. Runs on your machine only: no network, no account, no upload.

    USAGE: glimt-pure <command> [options]

    COMMANDS:
    \(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
      help        Show help for a command

    OPTIONS:
      --version   Print the version, the git commit it was built from and the kernels running
      -h, --help  Show this help

    Every command also takes -q (--quiet) and -v (--verbose).
    \(HelpText.wrap("EXIT STATUS: " + ExitStatus.text, indent: "").joined(separator: "\n"))

    See 'glimt-pure help <command>' for a command's options.
    """

func main() -> Int32 {
    // Before anything else: the kernels are chosen, and what cannot run (this build on this CPU, a
    // GLIMT_KERNELS it cannot honour) is said in one line.
    do { try Kernels.start() } catch {
        Console.err("glimt-pure: \(error)")
        return ExitStatus.failed
    }
    FreedMemory.setUpAllocator()
    var tokens = Array(FileName.arguments.dropFirst())
    guard let first = tokens.first else {
        Console.err(toolHelp)
        return ExitStatus.usage
    }
    switch first {
    case "--version", "-V":
        Console.out("glimt-pure \(Glimt.version)")
        Console.out("commit: \(BuildCommit.id)")
        let k = Kernels.running
        Console.out("kernels: \(k.name) (\(k.level))" + (Kernels.forced ? ", set by \(Kernels.environmentKey)" : ""))
        return ExitStatus.done
    case "--help", "-h":
        Console.out(toolHelp)
        return ExitStatus.done
    case "help":
        guard tokens.count > 1 else { Console.out(toolHelp); return ExitStatus.done }
        guard let cmd = commands.first(where: { $0.name == tokens[1] }) else {
            Console.err(
                "glimt-pure: no command '\(tokens[1])'\(didYouMean(tokens[1], commands.map { $0.name })) (commands: \(commands.map { $0.name }.joined(separator: ", ")))"
            )
            return ExitStatus.usage
        }
        Console.out(cmd.help)
        return ExitStatus.done
    default:
        break
    }
    guard let cmd = commands.first(where: { $0.name == first }) else {
        Console.err("glimt-pure: unknown command '\(first)'\(didYouMean(first, commands.map { $0.name } + ["help"])) (see: glimt-pure --help)")
        return ExitStatus.usage
    }
    tokens.removeFirst()
    if CommonOptions.asksForHelp(tokens) {
        Console.out(cmd.help)
        return ExitStatus.done
    }
    let status: Int32
    do {
        status = try cmd.run(tokens, elsewhere: commandsTaking)
    } catch let e as UsageError {
        Console.err("glimt-pure \(cmd.name): \(e)")
        return ExitStatus.usage
    } catch let e as People.NotChosen {
        Console.err("glimt-pure \(cmd.name): \(e)")
        return ExitStatus.usage
    } catch let e as People.UnknownPerson {
        let closest = Suggestion.closest(to: e.name.lowercased(), in: e.people.map { $0.lowercased() }).flatMap { low in
            e.people.first { $0.lowercased() == low }
        }
        Console.err("glimt-pure \(cmd.name): \(e.description(closest: closest))")
        return ExitStatus.usage
    } catch let e as AmbiguousFaceError {
        // glimt never guesses "the biggest face": the faces are listed for the person to choose.
        Console.err("glimt-pure \(cmd.name): \(e)")
        for (i, f) in e.faces.enumerated() {
            let b = f.face.box
            Console.err(
                String(
                    format: "  face %d: box %d,%d %dx%d, score %.2f, quality %.2f", i + 1, Int(b.x), Int(b.y), Int(b.width), Int(b.height),
                    f.face.score, f.quality.value))
        }
        return ExitStatus.ambiguousFace
    } catch {
        Console.err("glimt-pure \(cmd.name): \(error)")
        return ExitStatus.failed
    }
    if Console.outputFailed != 0 {
        Console.err("glimt-pure \(cmd.name): cannot write the output (\(String(cString: strerror(Console.outputFailed))))")
        return ExitStatus.failed
    }
    return status
}

/// ` (did you mean 'scan'?)`, or nothing when no name is close.
func didYouMean(_ typed: String, _ names: [String]) -> String {
    Suggestion.closest(to: typed, in: names).map { " (did you mean '\($0)'?)" } ?? ""
}

exit(main())
