import Analysis
import Imaging

/// What a year page holds: the data its script shows (`window.GLIMT_REVIEW` in `data/YEAR.js`),
/// every field as the page's contract says (docs/review.md).
struct ReviewData: Encodable {
    var version = 1
    var year: Int
    var years: [Int]
    var person: String?
    var people: [String]
    var generated: String
    /// What applies the choices the page saves.
    var command: String
    var days: [Day]

    struct Day: Encodable {
        var day: String
        var status: String
        var reason: String?
        var peopleFound: [String]?
        var pick: Pick?
        var candidates: [Candidate]
    }

    struct Pick: Encodable {
        var candidate: Int?
        var start: Double
        var length: Double
        var score: Float
        var parts: Parts
        var crop: Box
        var people: [String]?
        /// What spoils the second as a moment, and why a better-scoring one was passed over.
        var flaws: [String]?
        var passedOver: String?
    }

    struct Parts: Encodable {
        var aesthetics: Float
        var sharpness: Float
        var face: Float
        var identity: Float?

        init(_ p: FrameScore) { (aesthetics, sharpness, face, identity) = (p.aesthetics, p.sharpness, p.face, p.identity) }
    }

    struct Candidate: Encodable {
        var video: String
        var name: String
        var duration: Double
        var width: Int
        var height: Int
        var start: Double?
        var length: Double
        var score: Float?
        var parts: Parts?
        var containsPerson: Bool?
        var excluded: Bool
        var picked: Bool
        var kind: String
        var setAside: String?
        var dateSource: String
        var thumb: String?
        var preview: String?
        var previewStart: Double?
        var crop: Box?
        var windows: [DayReport.Candidate.Second]
    }
}
