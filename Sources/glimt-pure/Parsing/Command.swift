/// One subcommand: what it says of itself (from which help, man page and completions are
/// made), the options it takes and its run function. Commands only parse and print; the work
/// happens in GlimtPure.
protocol Command {
    /// Its options, each a stored property: what the parser takes, help shows and `run` reads.
    associatedtype Options: OptionGroup

    static var name: String { get }
    static var summary: String { get }
    /// Usage lines, each after `glimt-pure `.
    static var usage: [String] { get }
    /// Paragraphs of explanation, blank-line separated.
    static var about: String { get }
    /// What positional arguments complete to.
    static var positionals: OptionSpec.Completion { get }
    /// Words the first positional argument may be (`reference add|list|remove`); none for most.
    static var subcommands: [String] { get }
    static func run(_ args: Arguments<Options>) throws -> Int32
}

extension Command {
    static var positionals: OptionSpec.Completion { .file }
    static var subcommands: [String] { [] }
    /// Every option, the common ones included, as the parser takes them.
    static var allOptions: [OptionSpec] { Options().specs + CommonOptions().specs }
    static var help: String { HelpText.command(self) }

    /// Parses `tokens` (`elsewhere` names the commands that take an option this one does not),
    /// sets the console's -q and -v, and runs.
    static func run(_ tokens: [String], elsewhere: (String) -> [String]) throws -> Int32 {
        let line = try ParsedCommandLine(tokens, command: name, options: allOptions, elsewhere: elsewhere)
        let common = Arguments(line, options: CommonOptions())
        Console.quiet = common.flag(\.quiet)
        Console.verbose = common.flag(\.verbose)
        return try run(Arguments(line, options: Options()))
    }
}
