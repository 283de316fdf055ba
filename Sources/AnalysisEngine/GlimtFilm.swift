import GlimtCore

/// A film glimt-pure made, found among the videos to analyse (saved into a scanned folder, or
/// the folder a film is made from). It holds one second of many days, so it is no video of the
/// day it was made: the analyzer throws this instead of analysing it, and callers skip the file
/// with this line without counting it as a failure.
public struct GlimtFilm: Error, CustomStringConvertible, Sendable {
    public let path: String
    /// "glimt-pure 0.1.0", as the film's mark says (see `OwnMark`).
    public let maker: String
    /// A still glimt drew (a sheet, a thumbnail) found among the photos, not a film.
    public let isStill: Bool

    public init(path: String, maker: String, isStill: Bool = false) {
        self.path = path
        self.maker = maker
        self.isStill = isStill
    }

    public var reason: String { isStill ? "a picture made by \(maker) (a sheet or a thumbnail); skipped" : "a film made by \(maker); skipped" }
    public var description: String { "\(ShownPath.escaped(path)): \(reason)" }
}
