/// A mistake in how the command was called: said in one line, exit 64.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
