import Imaging

/// The second chosen for one local calendar day.
public struct DayPick: Codable, Equatable, Sendable {
    public var day: String
    public var video: String
    /// Seconds from the start of the video (presentation time, as the player shows it).
    public var start: Double
    public var length: Double
    public var score: Float
    public var parts: FrameScore
    public var identity: VideoAnalysis.IdentityEvidence?
    /// Crop in the video's upright (display) pixels, and how much it zooms.
    public var crop: Box
    public var zoom: Float
    public var captureTime: String?
    public var dateSource: CaptureDate.Source
    /// Videos of that day that were analysed.
    public var candidates: Int

    /// Per day, the video whose best window scores highest. With references, only videos that
    /// contain the child compete: a day without them gets no pick (it is listed as skipped).
    public static func pick(_ videos: [VideoAnalysis], hasReferences: Bool) -> (picks: [DayPick], skipped: [String: String]) {
        let byDay = Dictionary(grouping: videos, by: \.capture.day)
        var picks: [DayPick] = []
        var skipped: [String: String] = [:]
        for day in byDay.keys.sorted() {
            let all = byDay[day]!
            let eligible = all.filter { $0.window != nil && (!hasReferences || $0.identity?.containsChild == true) }
            // Ties go to the earlier capture, then the path: the same input always gives the same film.
            guard let best = eligible.max(by: { a, b in
                if a.window!.meanScore != b.window!.meanScore { return a.window!.meanScore < b.window!.meanScore }
                return (a.capture.time ?? "", a.path) > (b.capture.time ?? "", b.path)
            }), let window = best.window, let crop = best.crop, let parts = best.windowParts else {
                skipped[day] = all.contains { $0.window != nil } ? "the person of the references is in none of its \(all.count) video\(all.count == 1 ? "" : "s")"
                    : "no video of it is long enough"
                continue
            }
            picks.append(DayPick(day: day, video: best.path, start: window.start, length: window.length, score: window.meanScore, parts: parts,
                                 identity: best.identity, crop: crop.box, zoom: crop.zoom, captureTime: best.capture.time,
                                 dateSource: best.capture.source, candidates: all.count))
        }
        return (picks, skipped)
    }
}
