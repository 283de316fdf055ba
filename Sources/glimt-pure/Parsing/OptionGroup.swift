/// A set of options, each a stored property: a command's own (`Command.Options`) or a group
/// that several commands take (`ReferenceOptions`, ...), opened in place where it is declared.
///
/// What a command declares is read from the properties themselves (as swift-argument-parser
/// reads a command's), so the options a command may read, by key path, are exactly the
/// options its help shows and its parser takes: a misspelt option does not compile, and there
/// is no second list to forget one in.
protocol OptionGroup: OptionDeclaring {
    init()
}

extension OptionGroup {
    var specs: [OptionSpec] {
        Mirror(reflecting: self).children.flatMap { child -> [OptionSpec] in
            // Anything else stored here would be readable by key path but unknown to the parser.
            guard let declared = child.value as? OptionDeclaring else {
                preconditionFailure("\(Self.self).\(child.label ?? "?") is not an option: an OptionGroup holds options and groups only")
            }
            return declared.specs
        }
    }
}

/// A group whose options together make one value (a day range, the references to look for),
/// with the checks between them made here once.
protocol ParsedGroup: OptionGroup {
    associatedtype Value
    static func value(_ args: Arguments<Self>) throws -> Value
}
