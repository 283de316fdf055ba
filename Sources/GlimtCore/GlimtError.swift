/// The one error type the library throws: a file (when there is one) and a one-line reason,
/// printed by the CLI as `path: reason`.
public struct GlimtError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String?
    public var reason: String

    public init(_ reason: String, path: String? = nil) {
        self.reason = reason
        self.path = path
    }

    public var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }

    /// The same reason, attributed to `path` unless it already names a file.
    public func at(_ path: String) -> GlimtError {
        self.path == nil ? GlimtError(reason, path: path) : self
    }
}
