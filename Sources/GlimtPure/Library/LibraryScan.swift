import Analysis
import AnalysisEngine
import Foundation
import GlimtCore
import Library

/// `glimt-pure scan`: brings the library up to date with folders of video. Unchanged files
/// (same path, size and time) cost a `stat`; moved or renamed ones are recognised by content and
/// only renamed in the store; new and edited ones are decoded and measured, two at a time, and
/// each is committed on its own, so a scan stopped at any moment loses at most the videos in
/// progress and the next scan goes on from there.
public final class LibraryScan {
    public struct Progress: Sendable {
        public var videosDone: Int
        public var videosTotal: Int
        /// The share of the video seconds to analyse that is done, 0 to 1.
        public var fraction: Double
        /// Of the videos being analysed, the one that finishes next.
        public var next: String?
        /// The video that has just finished (nil for progress within one).
        public var finished: String?
        public var framesPerSecond: Double
        /// Seconds left for the whole scan, from the recent rate of analysis.
        public var secondsLeft: Double?
    }

    public struct Summary: Codable, Sendable {
        /// Files found, photos included.
        public var found = 0
        /// Of `found`, photos.
        public var photosFound = 0
        public var analysed = 0
        public var unchanged = 0
        public var moved = 0
        /// Stored videos whose day was read again in this scan's time zone and changed.
        public var redated = 0
        /// Of `analysed`, videos observed before with other settings, and how they differed.
        public var reobserved = 0
        public var settingsChanged: [String] = []
        public var outOfRange = 0
        /// Videos of other shards (`--shard`), left to the scans of those.
        public var otherShards = 0
        /// Another scan was working on the library, and this one (`leaveIfBusy`) left it to it.
        public var leftToAnotherScan = false
        /// Files with the same content as another one found (kept once, under the first path).
        public var duplicates: [DuplicateFile] = []
        public var framesDecoded = 0
        public var failures: [FileProblem] = []
        /// Files left out on purpose, each named in a line (films glimt made); not failures.
        public var skipped: [FileProblem] = []
        public var seconds = 0.0
        /// Stopped by Ctrl-C or SIGTERM: `analysed` of `toAnalyse` were kept, the rest are for
        /// the next scan.
        public var stopped = false
        public var toAnalyse = 0
    }

    public let library: URL
    public let options: AnalysisOptions
    public let fromDay: String?
    public let toDay: String?
    /// Videos analysed at once, when they are short enough to go side by side (see
    /// `SideBySide`); 1 for one at a time.
    public let workers: Int
    public static let standardWorkers = 2
    /// Only the videos of this shard are analysed (see `Shard`); nil for all.
    public let shard: Shard?
    /// When another scan holds the library: true to leave the work to it and return at once
    /// (the daily timer's scan, `--if-idle`), false to wait for it and then go on.
    public let leaveIfBusy: Bool

    public init(
        library: URL, options: AnalysisOptions, fromDay: String? = nil, toDay: String? = nil, workers: Int = LibraryScan.standardWorkers,
        shard: Shard? = nil, leaveIfBusy: Bool = false
    ) {
        self.library = library
        self.options = options
        self.fromDay = fromDay
        self.toDay = toDay
        self.workers = max(1, workers)
        self.shard = shard
        self.leaveIfBusy = leaveIfBusy
    }

    /// `waiting` hears once that another scan holds the library (this one then waits for it).
    /// Each scan is recorded in the store's history (`ScanRecord`) for `glimt-pure status`.
    public func run(
        _ inputs: [String], progress: ((Progress) -> Void)? = nil, report: ((FileProblem) -> Void)? = nil,
        waiting: (() -> Void)? = nil
    ) throws -> Summary {
        let store = try LibraryStore(library: library)
        // Absolute paths: the same file scanned from another working folder is the same entry.
        let absolute = inputs.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let work = { try self.scan(absolute, store: store, progress: progress, report: report) }
        guard leaveIfBusy else { return try FileLock.withLock(store.scanLockPath, whileWaiting: waiting, work) }
        guard let summary = try FileLock.ifFree(store.scanLockPath, work) else {
            var busy = Summary()
            busy.leftToAnotherScan = true
            return busy
        }
        return summary
    }

    /// The scan itself, under the library's scan lock.
    private func scan(_ inputs: [String], store: LibraryStore, progress: ((Progress) -> Void)?, report: ((FileProblem) -> Void)?) throws -> Summary {
        let started = DispatchTime.now().uptimeNanoseconds
        var record = ScanRecord(kind: .scan, started: Date(), inputs: inputs, shard: shard?.description)
        let recordID = try store.begin(record)
        var summary = Summary()
        let (files, problems) = VideoFiles.find(inputs)
        summary.found = files.count
        summary.photosFound = files.filter(VideoAnalyzer.isPhoto).count
        for p in problems {
            summary.failures.append(p)
            report?(p)
        }
        var work: [(path: String, key: String, duration: Double)] = []
        var queued: [String: String] = [:]
        var passedOver: [ScanRecord.File] = []
        var copies: [DuplicateFile] = []
        for path in files where !StopRequest.isRequested {
            do {
                switch try plan(path, store: store) {
                case .unchanged: summary.unchanged += 1
                case .redated(let changed):
                    summary.unchanged += 1
                    if changed { summary.redated += 1 }
                case .moved(let changed):
                    summary.moved += 1
                    if changed { summary.redated += 1 }
                case .outOfRange:
                    summary.outOfRange += 1
                    passedOver.append(ScanRecord.File(outcome: "outside the days asked", path: path, reason: "outside --from/--to"))
                case .otherShard: summary.otherShards += 1
                case .skipped(let film):
                    let f = FileProblem(path: path, reason: film.reason)
                    summary.skipped.append(f)
                    report?(f)
                case .duplicate(let first):
                    let copy = DuplicateFile(path: path, sameAs: first)
                    summary.duplicates.append(copy)
                    report?(copy.problem)
                case .analyse(let key, let duration, let differences):
                    if !differences.isEmpty {
                        summary.reobserved += 1
                        for d in differences where !summary.settingsChanged.contains(d) { summary.settingsChanged.append(d) }
                    }
                    if let first = queued[key] {
                        // Said once the first is analysed: a copy of a file that fails, fails too.
                        copies.append(DuplicateFile(path: path, sameAs: first))
                    } else {
                        queued[key] = path
                        work.append((path, key, duration))
                    }
                }
            } catch {
                let f = FileProblem(path: path, reason: (error as? GlimtError)?.reason ?? "\(error)")
                summary.failures.append(f)
                report?(f)
            }
        }
        summary.toAnalyse = work.count
        summary.stopped = StopRequest.isRequested
        if !summary.stopped { try analyse(work, store: store, summary: &summary, progress: progress, report: report) }
        for copy in copies {
            if let failure = summary.failures.first(where: { $0.path == copy.sameAs }) {
                let f = FileProblem(path: copy.path, reason: failure.reason)
                summary.failures.append(f)
                report?(f)
            } else if let film = summary.skipped.first(where: { $0.path == copy.sameAs }) {
                let f = FileProblem(path: copy.path, reason: film.reason)
                summary.skipped.append(f)
                report?(f)
            } else {
                summary.duplicates.append(copy)
                report?(copy.problem)
            }
        }
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        record.finished = Date()
        (record.found, record.analysed, record.unchanged, record.stopped) = (
            summary.found, summary.analysed, summary.unchanged + summary.moved, summary.stopped
        )
        record.files =
            summary.failures.map { ScanRecord.File(outcome: "failed", path: $0.path, reason: $0.reason) }
            + summary.skipped.map { ScanRecord.File(outcome: "skipped", path: $0.path, reason: $0.reason) }
            + summary.duplicates.map { ScanRecord.File(outcome: "duplicate", path: $0.path, reason: $0.problem.reason) } + passedOver
        try store.finish(recordID, record)
        return summary
    }

    private enum Plan {
        case unchanged
        /// Unchanged but read in another time zone: dated again (`true` when its day moved).
        case redated(Bool)
        /// Found under another name; `true` when dating it again in this zone moved its day.
        case moved(Bool)
        case outOfRange
        /// Another shard's video (`--shard`).
        case otherShard
        /// A film glimt made: never stored as a video.
        case skipped(GlimtFilm)
        /// The same content is stored under another path that still holds it.
        case duplicate(of: String)
        /// To observe, with what differed from a stored observation (none for a new video).
        case analyse(key: String, duration: Double, differences: [String])
    }

    /// What a file needs, decided without decoding it.
    private func plan(_ path: String, store: LibraryStore) throws -> Plan {
        let status = try FileStatus(path)
        if let why = status.notAFile { throw GlimtError(why, path: path) }
        let modified = status.modified.timeIntervalSince1970
        let method = options.method
        var differences: [String] = []
        if let known = try store.identity(path: path), known.size == status.size, known.modified == modified {
            let (frames, zone) = known.method.differences(from: method)
            if frames.isEmpty { return zone ? .redated(try redate(path, key: known.contentKey, store: store)) : .unchanged }
            differences = frames
        }
        let key = try ContentKey.of(path: path)
        if let shard, !shard.contains(contentKey: key) { return .otherShard }
        if differences.isEmpty, let known = try store.identity(contentKey: key) {
            let (frames, zone) = known.method.differences(from: method)
            if frames.isEmpty {
                // A second copy (a backup beside an export) is not a move while the first is still there.
                if known.path != path, let first = try? FileStatus(known.path), first.kind == .file, first.size == known.size,
                    first.modified.timeIntervalSince1970 == known.modified
                {
                    return .duplicate(of: known.path)
                }
                try store.moved(contentKey: key, to: path, size: status.size, modified: modified)
                return .moved(zone ? try redate(path, key: key, store: store) : false)
            }
            differences = frames
        }
        // A photo's day is read as it is decoded (see `analyse`); it weighs about a second of video.
        if VideoAnalyzer.isPhoto(path) { return .analyse(key: key, duration: Self.photoWeight, differences: differences) }
        // Opening the container is cheap: its length (for the ETA) and its day (for --from/--to).
        let facts = try VideoFacts.read(path: path, timeZone: options.timeZone)
        if let maker = facts.madeBy { return .skipped(GlimtFilm(path: path, maker: maker)) }
        if !inRange(facts.capture.day) { return .outOfRange }
        return .analyse(key: key, duration: facts.duration, differences: differences)
    }

    /// Whether `day` is within `--from`/`--to`.
    private func inRange(_ day: String) -> Bool { day >= (fromDay ?? "0000") && day <= (toDay ?? "9999") }

    /// Seconds of video a photo counts as in the progress and its ETA: measuring one costs about
    /// what a second's eight samples do.
    static let photoWeight = 1.0

    /// Dates a stored video again in this scan's time zone (its frames stand); whether its day moved.
    private func redate(_ path: String, key: String, store: LibraryStore) throws -> Bool {
        let capture =
            VideoAnalyzer.isPhoto(path)
            ? try VideoAnalyzer.photoDate(path: path, timeZone: options.timeZone)
            : try VideoFacts.read(path: path, timeZone: options.timeZone).capture
        return try store.redate(contentKey: key, capture: capture, timeZone: options.timeZone.identifier)
    }

    private func analyse(
        _ work: [(path: String, key: String, duration: Double)], store: LibraryStore, summary: inout Summary,
        progress: ((Progress) -> Void)?, report: ((FileProblem) -> Void)?
    ) throws {
        guard !work.isEmpty else { return }
        let analyzer = VideoAnalyzer(options: options, references: [], models: try FaceModels.load(), embedAllFaces: true)
        // The caller's callbacks print; workers take turns calling them.
        let callbacks = NSLock()
        func tell(_ p: Progress?) {
            guard let p, let progress else { return }
            callbacks.lock()
            progress(p)
            callbacks.unlock()
        }
        func tell(_ f: FileProblem) {
            callbacks.lock()
            report?(f)
            callbacks.unlock()
        }
        let state = ScanState(total: work.count, seconds: work.map(\.duration).reduce(0, +))
        let lock = NSLock()
        var next = 0
        var fatal: Error?
        var local = Summary()
        let turns = SideBySide()
        // Threads of their own: a worker waiting for its turn must not hold a pool thread that
        // the measuring of the video analysed meanwhile needs.
        OwnThreads.run(count: min(workers, work.count)) { _ in
            while true {
                lock.lock()
                guard fatal == nil, next < work.count, !StopRequest.isRequested else { lock.unlock(); return }
                let item = work[next]
                next += 1
                lock.unlock()
                turns.enter(duration: item.duration)
                var times = VideoAnalysis.StageTimes()
                tell(state.started(path: item.path, duration: item.duration))
                do {
                    let video =
                        VideoAnalyzer.isPhoto(item.path)
                        ? try analyzer.observePhoto(path: item.path, contentKey: item.key)
                        : try analyzer.observe(path: item.path, contentKey: item.key, times: &times) { p in
                            tell(state.frame(path: item.path, time: p.time))
                        }
                    // A photo's day is known once it is read: one outside --from/--to is not kept.
                    let kept = self.inRange(video.capture.day)
                    if kept {
                        try store.save(video)
                        for note in video.notes { tell(FileProblem(path: item.path, reason: note)) }
                    }
                    lock.lock()
                    if kept {
                        local.analysed += 1
                        local.framesDecoded += times.frames
                    } else {
                        local.outOfRange += 1
                    }
                    lock.unlock()
                } catch let film as GlimtFilm {
                    let f = FileProblem(path: item.path, reason: film.reason)
                    lock.lock()
                    local.skipped.append(f)
                    lock.unlock()
                    tell(f)
                } catch let e as GlimtError where e.path == item.path || e.path == nil {
                    let f = FileProblem(path: item.path, reason: e.reason)
                    lock.lock()
                    local.failures.append(f)
                    lock.unlock()
                    tell(f)
                } catch is Stopped {
                    // Ctrl-C or SIGTERM: this video is for the next scan; the finished ones stand.
                    turns.leave()
                    return
                } catch {
                    // The store itself failed (disk full, damaged): stop, keeping what is committed.
                    lock.lock()
                    fatal = error
                    lock.unlock()
                }
                turns.leave()
                tell(state.finished(path: item.path, duration: item.duration))
            }
        }
        if let fatal { throw fatal }
        summary.stopped = StopRequest.isRequested
        summary.analysed += local.analysed
        summary.outOfRange += local.outOfRange
        summary.framesDecoded += local.framesDecoded
        summary.failures += local.failures
        summary.skipped += local.skipped
    }
}

/// Progress shared by the workers: videos done, the share of the video seconds covered, and an
/// ETA from the recent rate of covering them (so it counts the last file, when one worker is left).
private final class ScanState: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let seconds: Double
    private var done = 0
    private var secondsDone = 0.0
    /// The videos being analysed: how far each has got, and how long it is.
    private var current: [String: (time: Double, duration: Double)] = [:]
    private var frames = 0
    private let started = DispatchTime.now().uptimeNanoseconds
    /// Recent (wall time, seconds covered): the rate over the last few seconds.
    private var recent: [(at: Double, covered: Double)] = []
    static let rateWindow = 8.0

    init(total: Int, seconds: Double) {
        self.total = total
        self.seconds = seconds
    }

    func started(path: String, duration: Double) -> LibraryScan.Progress {
        lock.lock()
        defer { lock.unlock() }
        current[path] = (0, duration)
        return progress(finished: nil)
    }

    func frame(path: String, time: Double) -> LibraryScan.Progress {
        lock.lock()
        defer { lock.unlock() }
        if let c = current[path] { current[path] = (min(time, c.duration), c.duration) }
        frames += 1
        return progress(finished: nil)
    }

    func finished(path: String, duration: Double) -> LibraryScan.Progress {
        lock.lock()
        defer { lock.unlock() }
        current[path] = nil
        done += 1
        secondsDone += duration
        return progress(finished: path)
    }

    private func progress(finished: String?) -> LibraryScan.Progress {
        let now = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let covered = min(seconds, secondsDone + current.values.reduce(0) { $0 + $1.time })
        recent.append((now, covered))
        recent.removeAll { $0.at < now - Self.rateWindow && recent.count > 2 }
        var left: Double?
        if let first = recent.first, now - first.at > 1, covered > first.covered {
            left = (now - first.at) / (covered - first.covered) * max(0, seconds - covered)
        }
        // The file that finishes next: the least video left to cover.
        let next = current.min { ($0.value.duration - $0.value.time, $0.key) < ($1.value.duration - $1.value.time, $1.key) }?.key
        return LibraryScan.Progress(
            videosDone: done, videosTotal: total, fraction: seconds > 0 ? covered / seconds : Double(done) / Double(max(1, total)),
            next: next, finished: finished, framesPerSecond: now > 0 ? Double(frames) / now : 0, secondsLeft: left)
    }
}
