import Analysis
import AnalysisEngine
import Film
import Foundation
import GlimtCore
import Imaging
import Library

/// `glimt-pure film`: checks everything the output needs before any analysis starts, then
/// analyses (or reads saved picks), plans the clips and renders them.
public struct FilmJob {
    public private(set) var film: FilmOptions
    public let output: String
    public let fromDay: String?
    public let toDay: String?

    /// Every error here names what is wrong before an hour of analysis, not after it.
    public init(film: FilmOptions, output: String, fromDay: String?, toDay: String?, overwrite: Bool = false) throws {
        if let problem = film.problem { throw GlimtError(problem) }
        try OutputFile.check(output, extensions: ["mp4", "m4v"], what: "the film", overwrite: overwrite)
        var music = ReadFiles()
        music.add(film.music, as: "music for the film")
        try music.check(output, option: "--out")
        try MusicBed.check(film.music)
        self.film = film
        self.output = output
        self.fromDay = fromDay
        self.toDay = toDay
    }

    /// Where the days come from.
    public enum Source {
        /// Analyse these videos and folders.
        case videos([String], AnalysisOptions, References.Choice)
        /// The picks of a saved `analyze --json` result.
        case picks(String)
        /// The library's days, as `glimt-pure days` shows them (pins and exclusions honoured).
        case library(LibraryDays)
    }

    public struct Outcome {
        /// The clips rendered, in day order.
        public var segments: [FilmSegment]
        /// Days with videos but no pick, and why.
        public var skippedDays: [String: String]
        /// Files that could not be analysed (the film was made from the others).
        public var failures: [FileProblem]
        /// Videos of the film dated only by their file's modification time (a copy's time is the
        /// day of the copy): worth a warning.
        public var datedByModificationTime: [String] = []
        /// Days of the film before the birthday its age captions count from: their captions say no age.
        public var beforeBirth: [String] = []
    }

    /// The birthday the film's age captions count from: `film.born` (`--born`) over the one
    /// stored for the library's person the film is for (whose days, or whose stored references,
    /// choose its seconds); nil when none is known, as for saved picks or the whole family
    /// without `film.born`.
    func birthday(for source: Source) throws -> String? {
        switch source {
        case .picks: return try birthday(for: nil)
        case .videos(_, _, let choice): return try birthday(for: choice)
        case .library(let days): return film.born ?? (days.lookFor.everyone ? nil : days.lookFor.judged?.born)
        }
    }

    /// The same for the person `choice` names (nil: saved picks, no one), before anything is analysed.
    public func birthday(for choice: References.Choice?) throws -> String? {
        if let born = film.born { return born }
        guard case .stored(let library, let name) = choice else { return nil }
        return try People.choose(name, in: ReferenceStore(library: library).people())?.born
    }

    /// Why the film cannot say what its captions ask for: an age with no birthday known (see
    /// `birthday(for:)`). Nil when it can.
    public func captionProblem(birthday: String?) -> String? {
        guard film.caption.showsAge, birthday == nil else { return nil }
        return "--caption \(film.caption.rawValue) needs a birthday: give the person one (glimt-pure people set NAME --born YYYY-MM-DD) "
            + "or give the film one (--born YYYY-MM-DD)"
    }

    /// The whole job: picks (analysed or loaded), the clips in range, the render. Throws when no
    /// day has a pick, saying why for each day. `report` hears each file named in a line: a
    /// failure (left out), a file skipped, a note on a video used (see `AnalysisRun`).
    public func run(
        _ source: Source, analysisProgress: ((AnalysisProgress) -> Void)? = nil,
        report: ((FileProblem) -> Void)? = nil, renderProgress: ((RenderProgress) -> Void)? = nil
    ) throws -> Outcome {
        var job = self
        job.film.born = try birthday(for: source)
        if let why = captionProblem(birthday: job.film.born) { throw GlimtError(why) }
        return try job.make(source, analysisProgress: analysisProgress, report: report, renderProgress: renderProgress)
    }

    private func make(
        _ source: Source, analysisProgress: ((AnalysisProgress) -> Void)?, report: ((FileProblem) -> Void)?,
        renderProgress: ((RenderProgress) -> Void)?
    ) throws -> Outcome {
        var outcome = Outcome(segments: [], skippedDays: [:], failures: [])
        let picks: [DayPick]
        switch source {
        case .picks(let file):
            let loaded = try FilmPlan.loadPicks(file)
            var reads = ReadFiles()
            reads.add([file], as: "the picks file")
            reads.add(loaded.picks.map(\.video), as: Self.filmInput)
            try reads.check(output, option: "--out")
            for problem in loaded.problems { report?(problem) }
            outcome.failures = loaded.problems
            picks = loaded.picks
        case .library(let days):
            try days.reads.check(output, option: "--out")
            var found: [DayPick] = []
            try days.forEachDay(from: fromDay, to: toDay) { day in
                if let pick = day.pick {
                    found.append(pick)
                    for note in day.candidates.first(where: \.picked)?.notes ?? [] { report?(FileProblem(path: pick.video, reason: note)) }
                    if day.datedByModificationTime.contains(pick.video) { outcome.datedByModificationTime.append(pick.video) }
                } else if day.status != .noVideo, let reason = day.reason {
                    outcome.skippedDays[day.day] = reason
                }
            }
            picks = found.filter { pick in
                guard let why = days.change(of: pick.video) else { return true }
                let failure = FileProblem(path: pick.video, reason: why)
                report?(failure)
                outcome.failures.append(failure)
                return false
            }
        case .videos(let inputs, let options, let references):
            let videos = VideoFiles.find(inputs)
            guard !videos.files.isEmpty || !videos.problems.isEmpty else {
                throw GlimtError("no videos or photos found in \(inputs.map(ShownPath.escaped).joined(separator: ", ")); no film written")
            }
            var reads = ReadFiles()
            reads.add(videos.files, as: Self.filmInput)
            reads.add(references)
            try reads.check(output, option: "--out")
            let result = try AnalysisRun.run(
                videos: videos, options: analysisOptions(options), references: references,
                progress: analysisProgress, report: report)
            picks = result.picks
            // The render needs memory for 4K pictures and the encoder; the models are done.
            FaceModels.unloadAll()
            FreedMemory.giveBack()
            outcome.datedByModificationTime = result.picks.filter { $0.dateSource == .modificationTime }.map(\.video)
            outcome.skippedDays = result.skippedDays
            outcome.failures = result.failures
        }
        // A clip that cannot be cut is left out before the render starts, named like a bad file.
        let renderer = try FilmRenderer(options: film)
        outcome.segments = segments(picks).filter { segment in
            guard let problem = renderer.problem(with: segment) else { return true }
            let failure = FileProblem(path: problem.path ?? segment.video, reason: "\(problem.reason) (the pick for \(segment.day)); left out")
            report?(failure)
            outcome.failures.append(failure)
            return false
        }
        guard !outcome.segments.isEmpty else {
            let why = outcome.skippedDays.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            throw GlimtError("no day has a pick\(why.isEmpty ? "" : " (\(why))"); no film written")
        }
        if film.caption.showsAge, let born = film.born { outcome.beforeBirth = outcome.segments.map(\.day).filter { $0 < born } }
        try render(outcome.segments, progress: renderProgress, report: report)
        return outcome
    }

    /// The film must never replace a video it is made from (`film d --out d/a.mp4 -y`), nor be
    /// read back as one (see `ReadFiles`).
    static let filmInput = "one of the videos the film is made from"

    /// Analysis settings framed for this film: crops of its shape, clips of its length.
    public func analysisOptions(_ base: AnalysisOptions) -> AnalysisOptions {
        var options = base
        options.rules = rules(base.rules)
        return options
    }

    /// Judging rules framed for this film (the library's days are judged with these).
    public func rules(_ base: Judgement.Rules) -> Judgement.Rules {
        var rules = base
        rules.windowLength = film.seconds
        rules.aspect = film.aspect
        return rules
    }

    /// The film's clips from `picks`, within the day range.
    func segments(_ picks: [DayPick]) -> [FilmSegment] {
        FilmPlan.segments(from: picks, fromDay: fromDay, toDay: toDay)
    }

    func render(_ segments: [FilmSegment], progress: ((RenderProgress) -> Void)? = nil, report: ((FileProblem) -> Void)? = nil) throws {
        var segments = segments
        if film.align == .eyes {
            for i in segments.indices { segments[i].crops = try eyeCrops(segments[i], report: report) }
            FaceModels.unloadAll()
        }
        if !film.music.isEmpty && film.audio {
            // The music is lowered where the seconds' own sound has speech.
            for i in segments.indices where segments[i].playbackSpeed == 1 && !segments[i].isPhoto {
                segments[i].speech = try HeardSpeech.runs(path: segments[i].video, start: segments[i].start, length: film.seconds)
            }
        }
        try FilmRenderer(options: film).render(segments, to: output, progress: progress)
    }

    /// The crops that keep the person's eyes in place through `s` (`EyeAlignment`), or nil (and
    /// a line naming the day) when too few of its frames show the face: that second keeps the
    /// pick's steady crop. A face too small to show at the film's eye size is shown smaller, also
    /// with a line.
    func eyeCrops(_ s: FilmSegment, report: ((FileProblem) -> Void)?) throws -> [Box]? {
        let n = film.framesPerClip
        let outcome =
            s.isPhoto
            // A photo's eyes are where they are for the whole second: it is held still, not pushed.
            ? try ShownEyes.photo(path: s.video, crop: s.crop, frames: n, width: film.width, height: film.height)
            : try ShownEyes.video(
                path: s.video, start: s.start, length: Double(n) / Double(film.fps) * s.playbackSpeed, crop: s.crop, width: film.width,
                height: film.height, shown: { s.shownPictures(times: $0, count: n, fps: film.fps) })
        switch outcome {
        case .aligned(let crops, let limited):
            if limited {
                report?(
                    FileProblem(
                        path: s.video,
                        reason: "\(s.day): the face is small, so its eyes are shown closer together than on the other days "
                            + "(the picture is enlarged at most \(Int(EyeAlignment.maxEnlargement))x)"))
            }
            return crops
        case .tooFewEyes(let seen, let frames):
            report?(
                FileProblem(
                    path: s.video,
                    reason: "\(s.day): the person's eyes are found in \(seen) of the second's \(frames) frames, too few to align; "
                        + "the second keeps its ordinary framing"))
            return nil
        }
    }
}
