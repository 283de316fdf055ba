/// The error everything a user can cause ends in: a file (when there is one) and a one-line
/// reason, printed by the CLI as `path: reason`, exit 1. The family has two more members: the
/// CLI's usage mistakes (exit 64) and `AmbiguousFaceError` in the facade (a photo with several
/// faces and no face named, exit 2). Lower-level errors (decoding, a missing weight file) are
/// turned into this one where they happen.
public struct GlimtError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String?
    public var reason: String

    public init(_ reason: String, path: String? = nil) {
        self.reason = reason
        self.path = path
    }

    public var description: String {
        guard let path else { return reason }
        return "\(ShownPath.escaped(path)): \(reason)"
    }

    /// The same reason, attributed to `path` unless it already names a file.
    public func at(_ path: String) -> GlimtError {
        self.path == nil ? GlimtError(reason, path: path) : self
    }
}
