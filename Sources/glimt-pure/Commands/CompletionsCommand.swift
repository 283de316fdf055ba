import Foundation
import GlimtPure

struct CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "Print the shell completions for bash, zsh or fish"
    static let usage = ["completions bash|zsh|fish"]
    static let about = """
        Prints a completion script made from the same command definitions as the help texts.
        tools/install.sh installs all three; by hand, e.g.
        'glimt-pure completions bash > ~/.local/share/bash-completion/completions/glimt-pure'.
        """
    struct Options: OptionGroup {}
    static let positionals = OptionSpec.Completion.choices(["bash", "zsh", "fish"])

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("a shell: bash, zsh or fish", min: 1, max: 1)
        switch args.positionals[0] {
        case "bash": Console.out(Completions.bash())
        case "zsh": Console.out(Completions.zsh())
        case "fish": Console.out(Completions.fish())
        default: throw UsageError("shells are bash, zsh or fish, not '\(args.positionals[0])'")
        }
        return ExitStatus.done
    }
}
