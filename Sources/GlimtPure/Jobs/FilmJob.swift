import Foundation
import Analysis
import Film
import GlimtCore
import MediaIO

/// `glimt-pure film`: checks everything the output needs before any analysis starts, then
/// analyses (or reads saved picks), plans the clips and renders them.
public struct FilmJob {
    public let film: FilmOptions
    public let output: String
    public let fromDay: String?
    public let toDay: String?

    /// Every error here names what is wrong before an hour of analysis, not after it.
    public init(film: FilmOptions, output: String, fromDay: String?, toDay: String?) throws {
        if let problem = FilmFormat.problem(width: film.width, height: film.height, fps: film.fps) { throw GlimtError(problem) }
        for day in [fromDay, toDay].compactMap({ $0 }) where CalendarDay.parse(day) == nil {
            throw GlimtError("'\(day)' is not a day written YYYY-MM-DD")
        }
        if let fromDay, let toDay, fromDay > toDay { throw GlimtError("--from \(fromDay) is after --to \(toDay)") }
        try Self.checkWritable(output)
        self.film = film
        self.output = output
        self.fromDay = fromDay
        self.toDay = toDay
    }

    /// The output must be a new or replaceable file in a folder that exists and takes new files.
    static func checkWritable(_ output: String) throws {
        let url = URL(fileURLWithPath: output)
        if let status = try? FileStatus(output), status.kind == .folder { throw GlimtError("is a folder; --out needs a file name", path: output) }
        let folder = url.deletingLastPathComponent().path
        guard let status = try? FileStatus(folder), status.kind == .folder else {
            throw GlimtError("the folder for the film does not exist", path: output)
        }
        guard access(folder, W_OK | X_OK) == 0 else { throw GlimtError("cannot write into its folder (\(FileStatus.reason(errno)))", path: output) }
    }

    /// Analysis settings framed for this film: crops of its shape, clips of its length.
    public func analysisOptions(_ base: AnalysisOptions) -> AnalysisOptions {
        var options = base
        options.windowLength = film.seconds
        options.aspect = film.aspect
        return options
    }

    /// The film's clips from `picks`, within the day range.
    public func segments(_ picks: [DayPick]) -> [FilmSegment] {
        FilmPlan.segments(from: picks, fromDay: fromDay, toDay: toDay)
    }

    public func render(_ segments: [FilmSegment], progress: ((RenderProgress) -> Void)? = nil) throws {
        try FilmRenderer(options: film).render(segments, to: output, progress: progress)
    }
}
