import Foundation
import GlimtCore
import Analysis
import Faces
import Library
import AnalysisEngine

/// A whole analysis: the videos (folders searched recursively), the references, every video
/// analysed in order with bad files reported and skipped, then the picks per day.
public struct AnalysisRun: Sendable {
    public struct Failure: Codable, Sendable {
        public var path: String
        public var reason: String
    }

    /// A file with the same content as one before it (a backup and an export of the same
    /// video, a renamed copy): counted once, as the first.
    public struct Duplicate: Codable, Sendable {
        public var path: String
        public var sameAs: String
    }

    public struct Result: Codable, Sendable {
        public var picks: [DayPick]
        /// Days with videos but no pick, and why.
        public var skippedDays: [String: String]
        public var videos: [VideoAnalysis]
        public var failures: [Failure]
        /// Files left out on purpose, each named in a line: films glimt made (see `GlimtFilm`).
        /// Not failures: the run did what it should with them.
        public var skipped: [Failure]
        public var duplicates: [Duplicate]
        public var references: Int
    }

    /// File name endings taken as videos when a folder is given.
    public static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "mkv", "webm", "avi", "3gp", "mts", "m2ts", "mpg", "mpeg", "wmv", "hevc"]

    /// The videos some inputs name, and what could not be listed.
    public typealias Videos = (files: [String], failures: [Failure])

    /// The videos `inputs` name: files as given, folders searched (see `FileWalker`).
    public static func expand(_ inputs: [String]) -> Videos {
        let (files, problems) = FileWalker.find(inputs) { videoExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
        return (files, problems.map { Failure(path: $0.path, reason: $0.reason) })
    }

    /// The whole job: loads the models and the references, then analyses `videos` (from
    /// `expand`, which a caller may need to look at first).
    public static func run(videos: Videos, options: AnalysisOptions, references: References.Choice,
                           progress: ((AnalysisProgress) -> Void)? = nil, report: ((Failure) -> Void)? = nil) throws -> Result {
        let pipeline = try FacePipeline.shared()
        let lookFor = try References.resolve(references, pipeline: pipeline)
        let known = lookFor.people.filter { !$0.references.isEmpty }
        let analyzer = VideoAnalyzer(options: options, people: known.map(\.embeddings), person: lookFor.judged.flatMap { p in known.firstIndex { $0.id == p.id } },
                                     pipeline: pipeline)
        return run(videos: videos, analyzer: analyzer, progress: progress, report: report)
    }

    public static func run(inputs: [String], options: AnalysisOptions, references: References.Choice,
                           progress: ((AnalysisProgress) -> Void)? = nil, report: ((Failure) -> Void)? = nil) throws -> Result {
        try run(videos: expand(inputs), options: options, references: references, progress: progress, report: report)
    }

    public static func run(inputs: [String], analyzer: VideoAnalyzer, progress: ((AnalysisProgress) -> Void)? = nil,
                           report: ((Failure) -> Void)? = nil) -> Result {
        run(videos: expand(inputs), analyzer: analyzer, progress: progress, report: report)
    }

    /// Runs the analysis; `report` hears each file named in a line as it happens (the run goes
    /// on): a failure, a file skipped, or a note on a video analysed (a capture date passed over,
    /// the file cut short). Only failures are counted as such. A file whose content (see
    /// `ContentKey`) was seen before is not analysed again.
    static func run(videos: Videos, analyzer: VideoAnalyzer, progress: ((AnalysisProgress) -> Void)?, report: ((Failure) -> Void)?) -> Result {
        let (files, listFailures) = videos
        var failures = listFailures
        listFailures.forEach { report?($0) }
        var videos: [VideoAnalysis] = []
        var duplicates: [Duplicate] = []
        var skipped: [Failure] = []
        var seen: [String: String] = [:]
        // A copy of a film glimt made is that film: skipped with its own line, never a duplicate.
        var films: [String: GlimtFilm] = [:]
        func skip(_ file: String, _ film: GlimtFilm) {
            let f = Failure(path: file, reason: film.reason)
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
                if let first = seen[k] {
                    duplicates.append(Duplicate(path: file, sameAs: first))
                    continue
                }
                seen[k] = file
                let video = try analyzer.analyze(path: file, index: i, count: files.count, progress: progress)
                for note in video.notes { report?(Failure(path: file, reason: note)) }
                videos.append(video)
            } catch let film as GlimtFilm {
                if let key { films[key] = film }
                skip(file, film)
            } catch {
                let reason = (error as? GlimtError)?.reason ?? "\(error)"
                let f = Failure(path: file, reason: reason)
                failures.append(f)
                report?(f)
            }
        }
        let (picks, skippedDays) = DayPick.pick(videos, hasReferences: analyzer.hasReferences, withoutPerson: analyzer.options.rules.withoutPerson)
        return Result(picks: picks, skippedDays: skippedDays, videos: videos, failures: failures, skipped: skipped, duplicates: duplicates,
                      references: analyzer.references.count)
    }
}
