/// Something a command declares on its command line: one option, or a group of them.
protocol OptionDeclaring {
    /// The options, in the order help shows them.
    var specs: [OptionSpec] { get }
}

/// One option of a command. A command reads it through `Arguments` by the key path of the
/// property that declares it, never by its name.
protocol DeclaredOption: OptionDeclaring {
    var spec: OptionSpec { get }
}

extension DeclaredOption {
    var specs: [OptionSpec] { [spec] }
}

/// An option whose text becomes a value of its own type, checked here and nowhere else.
protocol ParsedOption: DeclaredOption {
    associatedtype Value
    /// The value of `text` (nil: the option was not given), or a usage error that names the
    /// option (`command` is for messages that name the command).
    func value(_ text: String?, command: String) throws -> Value
}
