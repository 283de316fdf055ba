import GlimtCore

/// A year page's HTML: the skeleton (Page/review.html) with its year and whose days it shows
/// filled in; its script builds the page from the year's data file. Every file it names is
/// beside it: the page opens from `file://` and fetches nothing.
struct ReviewPage {
    /// What the skeleton leaves to each page: `{{year}}` and `{{whose}}` (" (Emma)", or nothing).
    static let blanks = ["year", "whose"]
    let skeleton: String

    /// The skeleton must leave both blanks, and no other: a page without its year would load
    /// another year's data.
    init(skeleton bytes: [UInt8]) throws {
        skeleton = String(decoding: bytes, as: UTF8.self)
        let found = Self.pieces(skeleton).compactMap(\.blank)
        for blank in Self.blanks where !found.contains(blank) {
            throw GlimtError("the review page's skeleton review.html has no {{\(blank)}}; reinstall glimt-pure")
        }
        if let other = found.first(where: { !Self.blanks.contains($0) }) {
            throw GlimtError("the review page's skeleton review.html has {{\(other)}}, which no page fills in; reinstall glimt-pure")
        }
    }

    func html(year: Int, person: String?) -> String {
        let values = ["year": String(year), "whose": person.map { " (\(Self.escaped($0)))" } ?? ""]
        // One pass over the skeleton: a name holding "{{year}}" stays text.
        return Self.pieces(skeleton).map { $0.blank.map { values[$0]! } ?? $0.text }.joined()
    }

    /// The skeleton as text and `{{name}}` blanks, in order.
    private static func pieces(_ s: String) -> [(text: String, blank: String?)] {
        var out: [(text: String, blank: String?)] = []
        var rest = Substring(s)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            out.append((String(rest[..<open.lowerBound]), nil))
            out.append(("", String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        out.append((String(rest), nil))
        return out
    }

    /// Text for HTML: a person's name may hold anything.
    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
