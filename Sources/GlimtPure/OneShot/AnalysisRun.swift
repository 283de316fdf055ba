import Analysis
import AnalysisEngine
import Foundation
import GlimtCore
import Library

/// A whole analysis: the videos (folders searched recursively), the references, every video
/// analysed in order with bad files reported and skipped, then the picks per day.
public struct AnalysisRun: Sendable {
    public struct Result: Codable, Sendable {
        public var picks: [DayPick]
        /// Days with videos but no pick, and why.
        public var skippedDays: [String: String]
        public var videos: [VideoAnalysis]
        public var failures: [FileProblem]
        /// Files left out on purpose, each named in a line: films glimt made (see `GlimtFilm`).
        /// Not failures: the run did what it should with them.
        public var skipped: [FileProblem]
        public var duplicates: [DuplicateFile]
        public var references: Int
    }

    /// The whole job: loads the models and the references, then analyses `videos` (from
    /// `expand`, which a caller may need to look at first).
    public static func run(
        videos: VideoFiles.Found, options: AnalysisOptions, references: References.Choice,
        progress: ((AnalysisProgress) -> Void)? = nil, report: ((FileProblem) -> Void)? = nil
    ) throws -> Result {
        let models = try FaceModels.load()
        let lookFor = try References.resolve(references, models: models)
        let known = lookFor.people.filter { !$0.references.isEmpty }
        let analyzer = VideoAnalyzer(
            options: options, people: known.map(\.embeddings), person: lookFor.judged.flatMap { p in known.firstIndex { $0.id == p.id } },
            models: models)
        return run(videos: videos, analyzer: analyzer, progress: progress, report: report)
    }

    public static func run(
        inputs: [String], options: AnalysisOptions, references: References.Choice,
        progress: ((AnalysisProgress) -> Void)? = nil, report: ((FileProblem) -> Void)? = nil
    ) throws -> Result {
        try run(videos: VideoFiles.find(inputs), options: options, references: references, progress: progress, report: report)
    }

    public static func run(
        inputs: [String], analyzer: VideoAnalyzer, progress: ((AnalysisProgress) -> Void)? = nil,
        report: ((FileProblem) -> Void)? = nil
    ) -> Result {
        run(videos: VideoFiles.find(inputs), analyzer: analyzer, progress: progress, report: report)
    }

    /// Runs the analysis; `report` hears each file named in a line as it happens (the run goes
    /// on): a failure, a file skipped, or a note on a video analysed (a capture date passed over,
    /// the file cut short). Only failures are counted as such. A file whose content (see
    /// `ContentKey`) was seen before is not analysed again.
    static func run(
        videos: VideoFiles.Found, analyzer: VideoAnalyzer, progress: ((AnalysisProgress) -> Void)?, report: ((FileProblem) -> Void)?
    ) -> Result {
        let (files, listFailures) = videos
        var failures = listFailures
        listFailures.forEach { report?($0) }
        var videos: [VideoAnalysis] = []
        var duplicates: [DuplicateFile] = []
        var skipped: [FileProblem] = []
        var seen: [String: String] = [:]
        // A copy of a film glimt made is that film: skipped with its own line, never a duplicate.
        var films: [String: GlimtFilm] = [:]
        // A copy of a file that could not be used (several empty files, a broken clip and its
        // backup) is not "counted once": it fails as the first did, in a line of its own.
        var failed: [String: String] = [:]
        func skip(_ file: String, _ film: GlimtFilm) {
            let f = FileProblem(path: file, reason: film.reason)
            skipped.append(f)
            report?(f)
        }
        for (i, file) in files.enumerated() {
            var key: String?
            do {
                let k = try ContentKey.of(path: file)
                key = k
                if let film = films[k] {
                    skip(file, film)
                    continue
                }
                if let reason = failed[k] {
                    let f = FileProblem(path: file, reason: reason)
                    failures.append(f)
                    report?(f)
                    continue
                }
                if let first = seen[k] {
                    let copy = DuplicateFile(path: file, sameAs: first)
                    duplicates.append(copy)
                    report?(copy.problem)
                    continue
                }
                seen[k] = file
                let video =
                    VideoAnalyzer.isPhoto(file)
                    ? analyzer.judged(try analyzer.observePhoto(path: file, contentKey: k))
                    : try analyzer.analyze(path: file, index: i, count: files.count, progress: progress)
                for note in video.notes { report?(FileProblem(path: file, reason: note)) }
                videos.append(video)
            } catch let film as GlimtFilm {
                if let key { films[key] = film }
                skip(file, film)
            } catch {
                let reason = (error as? GlimtError)?.reason ?? "\(error)"
                if let key {
                    seen[key] = nil
                    failed[key] = reason
                }
                let f = FileProblem(path: file, reason: reason)
                failures.append(f)
                report?(f)
            }
        }
        let rules = analyzer.options.rules
        let (picks, skippedDays) = DayPick.pick(
            videos, hasReferences: analyzer.hasReferences, withoutPerson: rules.withoutPerson, photos: rules.photos)
        return Result(
            picks: picks, skippedDays: skippedDays, videos: videos, failures: failures, skipped: skipped, duplicates: duplicates,
            references: analyzer.references.count)
    }
}
