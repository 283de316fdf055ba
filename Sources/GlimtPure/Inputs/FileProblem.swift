/// A file named in one line, with what is said of it: a file that could not be used, one left
/// out on purpose (a film glimt made, found among the videos), or a note on one that was used (a
/// capture date passed over, a file cut short). The run goes on either way.
public struct FileProblem: Codable, Sendable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
