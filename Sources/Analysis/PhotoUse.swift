/// Where photos take a day's second. A photo is one picture: it never shows a moment the way a
/// second of video does, so by default it only fills a day that has no video of the person.
public enum PhotoUse: String, Codable, Sendable, CaseIterable {
    /// A photo only for a day none of whose videos can be picked (the default).
    case fill
    /// Photos compete with the day's videos; the best-scoring wins (a still is often sharper).
    case also
    /// Videos only.
    case never

    /// The groups of a day's recordings to choose from, in turn: the first group with a
    /// candidate gives the day's second.
    public func tiers<T>(_ all: [T], isPhoto: (T) -> Bool) -> [[T]] {
        switch self {
        case .fill: return [all.filter { !isPhoto($0) }, all.filter(isPhoto)]
        case .also: return [all]
        case .never: return [all.filter { !isPhoto($0) }]
        }
    }
}
