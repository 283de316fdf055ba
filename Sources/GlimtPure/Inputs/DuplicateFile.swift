import GlimtCore

/// A file with the same content as one before it (a backup and an export of the same video, a
/// renamed copy, a hard link): counted once, as the first, and named in its own line.
public struct DuplicateFile: Codable, Sendable {
    public var path: String
    public var sameAs: String

    public init(path: String, sameAs: String) {
        self.path = path
        self.sameAs = sameAs
    }

    /// The line that names the copy, as every command that finds one says it.
    public var problem: FileProblem { FileProblem(path: path, reason: "the same video as \(ShownPath.escaped(sameAs)); counted once") }
}
