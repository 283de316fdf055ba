/// A file with the same content as one before it (a backup and an export of the same video, a
/// renamed copy): counted once, as the first.
public struct DuplicateFile: Codable, Sendable {
    public var path: String
    public var sameAs: String

    public init(path: String, sameAs: String) {
        self.path = path
        self.sameAs = sameAs
    }
}
