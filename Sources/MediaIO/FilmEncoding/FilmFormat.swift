import GlimtCore

/// The film's picture format, checked once for everyone: the CLI before any analysis, the
/// renderer and the writer. H.264 4:2:0 needs even sides (one colour sample per 2x2 pixels),
/// x264 wants at least 16 pixels a side, and H.264's largest level (6.2) allows 139,264
/// macroblocks of 16x16 per frame (8192x4320); no side over 8192.
public struct FilmFormat: Equatable, Sendable {
    public static let sides = 16...8192
    public static let maxMacroblocks = 139_264
    public static let frameRates = 1...120

    public let width: Int
    public let height: Int
    public let fps: Int

    public init(width: Int, height: Int, fps: Int) throws {
        if let problem = Self.problem(width: width, height: height, fps: fps) { throw GlimtError(problem) }
        self.width = width
        self.height = height
        self.fps = fps
    }

    /// Why this size and rate cannot be a film; nil when they can.
    public static func problem(width: Int, height: Int, fps: Int) -> String? {
        guard sides.contains(width), sides.contains(height), width % 2 == 0, height % 2 == 0 else {
            return "film size must be even numbers from \(sides.lowerBound) to \(sides.upperBound) (H.264 4:2:0), not \(width)x\(height)"
        }
        guard ((width + 15) / 16) * ((height + 15) / 16) <= maxMacroblocks else {
            return "film size \(width)x\(height) is larger than H.264 allows (at most \(maxMacroblocks) blocks of 16x16, e.g. 8192x4320)"
        }
        guard frameRates.contains(fps) else {
            return "film frame rate must be from \(frameRates.lowerBound) to \(frameRates.upperBound), not \(fps)"
        }
        return nil
    }
}
