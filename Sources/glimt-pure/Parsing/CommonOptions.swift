/// The options every command takes.
struct CommonOptions: OptionGroup {
    let quiet = FlagOption("--quiet", short: "-q", "No progress lines or notes (results and errors still print)")
    let verbose = FlagOption("--verbose", short: "-v", "Say more about each step")
    let help = FlagOption("--help", short: "-h", "Show this help")

    /// Whether the words ask for help (anywhere among them: `scan --from X -h` is help too).
    static func asksForHelp(_ tokens: [String]) -> Bool {
        let help = CommonOptions().help.spec
        return tokens.contains { $0 == help.name || $0 == help.short }
    }
}
