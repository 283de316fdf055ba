import Foundation
import GlimtPure

struct ManualCommand: Command {
    static let name = "manual"
    static let summary = "Print the manual page (roff), as 'man' shows it"
    static let usage = ["manual"]
    static let about = "Prints the glimt-pure(1) manual page, made from the same definitions as the help texts. tools/install.sh installs it."
    struct Options: OptionGroup {}
    static let positionals = OptionSpec.Completion.none

    static func run(_ args: Arguments<Options>) throws -> Int32 {
        try args.requirePositionals("no arguments", min: 0, max: 0)
        Console.out(Manual.page())
        return ExitStatus.done
    }
}
