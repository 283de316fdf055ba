/// A film's shape. Analysis frames its crops for it; the film renders at it.
public enum Aspect: String, Codable, CaseIterable, Sendable {
    case portrait, landscape, square

    /// A film is portrait unless asked otherwise: phones are held upright.
    public static let standard = Aspect.portrait

    /// Width / height.
    public var ratio: Float {
        switch self {
        case .portrait: return 9.0 / 16.0
        case .landscape: return 16.0 / 9.0
        case .square: return 1
        }
    }

    /// The default output size (1080 on the short side).
    public var defaultSize: (width: Int, height: Int) {
        switch self {
        case .portrait: return (1080, 1920)
        case .landscape: return (1920, 1080)
        case .square: return (1080, 1080)
        }
    }
}
