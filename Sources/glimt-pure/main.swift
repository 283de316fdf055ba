import Foundation
import GlimtPure

let commands: [Command.Type] = [FilmCommand.self, AnalyzeCommand.self, FacesCommand.self, ReferenceCommand.self, EmbedCommand.self]

let toolHelp = """
glimt-pure \(Glimt.version): one second of every day, made into a film, from the videos you
already took. Runs on your machine only: no network, no account, no upload.

USAGE: glimt-pure <command> [options]

COMMANDS:
\(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
  help        Show help for a command

OPTIONS:
  --version   Print the version
  -h, --help  Show this help

See 'glimt-pure help <command>' for a command's options.
"""

func main() -> Int32 {
    var tokens = Array(CommandLine.arguments.dropFirst())
    guard let first = tokens.first else {
        Console.err(toolHelp)
        return 64
    }
    switch first {
    case "--version", "-V":
        Console.out("glimt-pure \(Glimt.version)")
        return 0
    case "--help", "-h":
        Console.out(toolHelp)
        return 0
    case "help":
        guard tokens.count > 1 else { Console.out(toolHelp); return 0 }
        guard let cmd = commands.first(where: { $0.name == tokens[1] }) else {
            Console.err("glimt-pure: no command '\(tokens[1])' (commands: \(commands.map { $0.name }.joined(separator: ", ")))")
            return 64
        }
        Console.out(cmd.help)
        return 0
    default:
        break
    }
    guard let cmd = commands.first(where: { $0.name == first }) else {
        Console.err("glimt-pure: unknown command '\(first)' (see: glimt-pure --help)")
        return 64
    }
    tokens.removeFirst()
    if tokens.contains("--help") || tokens.contains("-h") {
        Console.out(cmd.help)
        return 0
    }
    do {
        return try cmd.run(try Arguments(tokens, command: cmd.name, options: cmd.options))
    } catch let e as UsageError {
        Console.err("glimt-pure \(cmd.name): \(e)")
        return 64
    } catch {
        Console.err("glimt-pure \(cmd.name): \(error)")
        return 1
    }
}

exit(main())
