import Analysis
import Faces
import Foundation
import GlimtCore
import Imaging
import MediaIO

/// Reads videos, measures every sampled frame (faces with their embeddings, looks, sharpness)
/// and judges them (see `Judgement`) per video and per day (see `DayPick`).
public final class VideoAnalyzer: @unchecked Sendable {
    /// Bumped whenever frames would be measured differently (sampling, models, scores), so that
    /// the library observes its videos again. 2: recording facts (Live Photos, screen
    /// recordings, slow motion) are kept, and HLG and PQ frames are judged tone-mapped, as the
    /// film shows them. 3: what a whole moment needs is kept (speech, scene changes, eyes; see
    /// `Moment`).
    public static let version = 3

    /// The library reads eyes on every this many samples of the 1/8 s grid, one eye a face: the
    /// eye model costs a third of a face's detection, and a blink's closing and opening last over
    /// a quarter of a second. A one-shot run reads every frame of the seconds it comes to (see
    /// `judged`).
    static let eyesEvery = 2
    /// A one-shot run reads the eyes of at most this many seconds before it settles.
    static let eyeRounds = 6

    public let options: AnalysisOptions
    /// Everyone the library knows, by their reference embeddings, and the one looked for (an
    /// index into `people`; nil: no one): faces are matched to all of them one to one.
    public let people: [[Embedding]]
    public let person: Int?
    /// The embeddings of the person's reference faces (none: no one is looked for).
    public var references: [Embedding] { person.map { people[$0] } ?? [] }
    /// Give every face an embedding, references or not (its own, or one it borrows while it is
    /// followed): the library keeps embeddings so that a change of references needs no decoding.
    public let embedAllFaces: Bool
    private var pipeline: any FaceReading

    public convenience init(options: AnalysisOptions, references: [Embedding], models: FaceModels, embedAllFaces: Bool = false) {
        self.init(
            options: options, people: references.isEmpty ? [] : [references], person: references.isEmpty ? nil : 0, models: models,
            embedAllFaces: embedAllFaces)
    }

    public convenience init(options: AnalysisOptions, people: [[Embedding]], person: Int?, models: FaceModels, embedAllFaces: Bool = false) {
        self.init(options: options, people: people, person: person, pipeline: models.pipeline, embedAllFaces: embedAllFaces)
    }

    package convenience init(options: AnalysisOptions, references: [Embedding], pipeline: any FaceReading, embedAllFaces: Bool = false) {
        self.init(
            options: options, people: references.isEmpty ? [] : [references], person: references.isEmpty ? nil : 0, pipeline: pipeline,
            embedAllFaces: embedAllFaces)
    }

    package init(options: AnalysisOptions, people: [[Embedding]], person: Int?, pipeline: any FaceReading, embedAllFaces: Bool = false) {
        self.options = options
        self.people = people
        self.person = person
        self.embedAllFaces = embedAllFaces
        self.pipeline = pipeline
        // Analysis frames are already scaled to `analysisSide`: the detector takes them as they are.
        self.pipeline.detectionSize = nil
        if embedsFaces { pipeline.prepareRecognizer() }
    }

    public var hasReferences: Bool { !references.isEmpty }

    /// Analyses one video. Throws a one-line `GlimtError` naming the file when it cannot be read;
    /// a file damaged part-way is analysed up to the damage. A long video is looked at coarse to
    /// fine when `options.coarseToFine` allows (see `Refinement`).
    public func analyze(path: String, index: Int = 0, count: Int = 1, progress: ((AnalysisProgress) -> Void)? = nil) throws -> VideoAnalysis {
        do { return try analyzeWithinBound(path: path, index: index, count: count, progress: progress) } catch let stopped as TimeBoundExceeded {
            throw stopped.error
        }
    }

    private func analyzeWithinBound(path: String, index: Int, count: Int, progress: ((AnalysisProgress) -> Void)?) throws -> VideoAnalysis {
        var times = VideoAnalysis.StageTimes()
        let judge = Judgement(people: people, person: person, rules: options.rules)
        var opened = try open(path)
        opened.eyesOnDemand = pipeline.readsEyes
        let report = reporter(opened, index: index, count: count, progress)
        if options.coarseToFine, let refined = try coarseToFine(opened, judge: judge, contentKey: "", times: &times, progress: report) {
            var analysis = judged(refined.video, opened: opened, by: judge, times: &times)
            analysis.keyframesLooked = refined.keyframesLooked
            analysis.times = times
            return analysis
        }
        let video = try observe(opened, contentKey: "", times: &times, progress: report)
        var analysis = judged(video, opened: opened, by: judge, times: &times)
        analysis.times = times
        return analysis
    }

    /// The verdict, with eyes read where it comes to. The chosen second's faces that kept eye
    /// crops are read at its samples (a low reading confirmed by the other eye); when none of
    /// those is closed, its frames between samples are decoded and read too
    /// (`EyesBetweenSamples`). A blink found sends the choice to another second, read in turn,
    /// until the second chosen is read through or `eyeRounds` seconds were.
    private func judged(_ observed: ObservedVideo, opened: Opened, by judge: Judgement, times: inout VideoAnalysis.StageTimes) -> VideoAnalysis {
        var video = observed
        var analysis = judge.analysis(of: video)
        guard video.frames.contains(where: { $0.faces.contains { $0.eyeCrop != nil } }), let reader = pipeline.eyes else { return analysis }
        var readThrough: [Range<Double>] = []
        for _ in 0..<Self.eyeRounds {
            guard let w = analysis.window else { break }
            let span = w.start..<(w.start + w.length)
            guard !readThrough.contains(span) else { break }
            let start = DispatchTime.now().uptimeNanoseconds
            defer { times.eyes += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
            let inside = Set(analysis.frames[w.frames].map(\.time))
            for i in video.frames.indices where inside.contains(video.frames[i].time) {
                for j in video.frames[i].faces.indices {
                    guard let crop = video.frames[i].faces[j].eyeCrop, let other = video.frames[i].faces[j].otherEyeCrop else { continue }
                    video.frames[i].faces[j].eyes = reader.confirmed(reader.openness(ofCrop: crop), byCrop: other)
                    video.frames[i].faces[j].eyeCrop = nil
                    video.frames[i].faces[j].otherEyeCrop = nil
                }
            }
            analysis = judge.analysis(of: video)
            guard let settled = analysis.window, settled.start == w.start else { continue }
            // Settled on a second whose samples show closed eyes: no other was better.
            guard !analysis.moment.flaws(of: settled, times: analysis.frames.map(\.time)).contains(where: \.isEyesClosed) else { break }
            readThrough.append(span)
            guard video.frames.contains(where: { inside.contains($0.time) && $0.faces.contains { $0.landmarks != nil } }) else { break }
            var decode = options.decoding.options(for: opened.info)
            decode.timeBound = opened.bound
            guard
                let pictures = try? opened.reader.frames(
                    every: 1e-4, longSide: options.analysisSide, from: span.lowerBound, to: span.upperBound, options: decode),
                let readings = try? EyesBetweenSamples.read(pictures, span: span, frames: video.frames, scale: opened.scale, reader: reader)
            else { break }
            let closed = EyesBetweenSamples.closed(in: readings)
            guard !closed.isEmpty else { break }
            video.closedEyes += closed
            analysis = judge.analysis(of: video)
        }
        return analysis
    }

    /// Decodes and measures one video for the library, which judges any later change of
    /// references from it: a long video is looked at by its keyframes first when
    /// `options.coarseToFine` allows, and sampled fully wherever anyone seen could have their
    /// second (`Refinement.stretchesForAnyone`); any other, every sample. `contentKey` is passed
    /// through.
    public func observe(
        path: String, contentKey: String, index: Int = 0, count: Int = 1, times: inout VideoAnalysis.StageTimes,
        progress: ((AnalysisProgress) -> Void)? = nil
    ) throws -> ObservedVideo {
        let opened = try open(path)
        let report = reporter(opened, index: index, count: count, progress)
        do {
            if options.coarseToFine, let looked = try coarseToFine(opened, judge: nil, contentKey: contentKey, times: &times, progress: report) {
                return looked.video
            }
            return try observe(opened, contentKey: contentKey, times: &times, progress: report)
        } catch let stopped as TimeBoundExceeded { throw stopped.error }
    }

    /// The caller's progress callback, told the video's place in the run and its length.
    private func reporter(_ v: Opened, index: Int, count: Int, _ progress: ((AnalysisProgress) -> Void)?) -> (Double) -> Void {
        { time in progress?(AnalysisProgress(videoIndex: index, videoCount: count, path: v.path, time: time, duration: v.info.duration)) }
    }

    /// An opened video with what every pass over it needs.
    private struct Opened {
        let path: String
        let reader: VideoReader
        let info: VideoInfo
        let status: FileStatus
        let facts: VideoFacts
        /// Every pass over the video together stops here.
        let bound: TimeBound
        /// Video pixels per analysis-frame pixel.
        let scale: Float
        /// Seconds between samples.
        let interval: Double
        /// Where its sound has speech (nil: no sound, or sound that would not decode).
        let speech: SpeechMap?
        /// Eyes read only for the seconds the judging comes to (a one-shot run, which knows the
        /// person), from eye crops kept meanwhile; false: read as sampled, for the library.
        var eyesOnDemand = false

        let method: ObservationMethod

        /// `notes`: what this pass found, after what the metadata says.
        func video(
            _ frames: [ObservedFrame], duration: Double, contentKey: String, stretches: [Range<Double>]? = nil, notes: [String] = []
        ) -> ObservedVideo {
            var method = self.method
            method.keyframeLook = stretches != nil
            var video = ObservedVideo(
                contentKey: contentKey, path: path, size: status.size, modified: status.modified.timeIntervalSince1970, capture: facts.capture,
                duration: duration, width: info.displayWidth, height: info.displayHeight, rotation: info.rotation,
                codec: info.codecName, hdr: info.colour.isHDR, recording: facts.recording, method: method, frames: frames,
                stretches: stretches, notes: facts.notes + notes, speech: speech)
            video.takeShotChanges(interval: interval)
            return video
        }
    }

    private func open(_ path: String) throws -> Opened {
        let reader = try VideoReader(path: path)
        let info = reader.info
        let status = try FileStatus(path)
        let long = max(info.displayWidth, info.displayHeight)
        let facts = try VideoFacts.read(path: path, info: info, status: status, timeZone: options.timeZone)
        if let maker = facts.madeBy { throw GlimtFilm(path: path, maker: maker) }
        // Sound that will not decode leaves the second without its speech, not the video unread.
        let speech = try? HeardSpeech.map(path: path, duration: info.duration)
        return Opened(
            path: path, reader: reader, info: info, status: status, facts: facts,
            bound: options.timeAllowance.bound(forVideoSeconds: info.duration),
            scale: Float(long) / Float(min(options.analysisSide, long)), interval: 1 / options.sampleRate, speech: speech,
            method: options.method)
    }

    private func observe(_ v: Opened, contentKey: String, times: inout VideoAnalysis.StageTimes, progress: (Double) -> Void) throws -> ObservedVideo {
        let pass = try sample(v, every: 1 / options.sampleRate, decode: options.decoding.options(for: v.info), times: &times, progress: progress)
        if let damage = pass.damage, pass.frames.isEmpty { throw damage }
        let duration = pass.damage == nil ? v.info.duration : min(v.info.duration, (pass.frames.last?.time ?? 0) + 1 / options.sampleRate)
        // A file cut short of its index is said by its facts already; other damage is said here.
        let damage = pass.damage.flatMap { v.info.cutShortAt == nil ? $0.reason + String(format: "; analysed up to %.1f s", duration) : nil }
        return v.video(pass.frames, duration: duration, contentKey: contentKey, notes: damage.map { [$0] } ?? [])
    }

    /// Keyframes first, then the full rate in the stretches they point at: for the person
    /// `judge` looks for, or (nil) for anyone a later reference could show. Nil when the video is
    /// better sampled whole: too short, keyframes too sparse, or damaged (a full pass then
    /// reports the damage as it always does).
    private func coarseToFine(
        _ v: Opened, judge: Judgement?, contentKey: String, times: inout VideoAnalysis.StageTimes,
        progress: (Double) -> Void
    ) throws -> (video: ObservedVideo, keyframesLooked: Int)? {
        let interval = 1 / options.sampleRate
        // The library's look, with its narrower stretches, is worth it on shorter videos.
        let shortest = judge == nil ? min(options.refinement.minDuration, Refinement.anyoneFrom) : options.refinement.minDuration
        guard v.info.duration >= shortest else { return nil }
        // Cut short, the frames end before the keyframes the index lists: the full pass says where.
        guard v.info.cutShortAt == nil else { return nil }
        // Slow motion stored slowed down has longer windows than the stretches are cut for.
        guard Recording.classify(v.facts.recording, frames: []).speed == 1 else { return nil }
        // A long video: every other keyframe first, which says where to look as well as all of
        // them do for half the decoding (see `Refinement.Rules.halfLookFrom`). Where it does not
        // (keyframes far apart), the other half makes it the look at every keyframe. Anyone's
        // stretches are chosen from every keyframe: a face seen at a left-out one would go
        // without.
        let halves = judge != nil && v.info.duration >= options.refinement.halfLookFrom
        guard var look = try lookAtKeyframes(v, half: halves ? 0 : nil, times: &times, progress: progress) else { return nil }
        if halves, let judge {
            // A moment between two looked-at keyframes shows in them only dimly: the keyframes
            // left out beside the best of them are looked at too. Progress already reached the
            // end once; it does not go back.
            guard
                let beside = try lookAtKeyframes(
                    v, half: nil, within: neighbourhoods(v, look: look, judge: judge),
                    times: &times, progress: { _ in })
            else { return nil }
            look = Self.merged(look, beside)
        }
        var stretches = plan(v, look: look, judge: judge)
        if stretches == nil && halves {
            guard let rest = try lookAtKeyframes(v, half: 1, times: &times, progress: { _ in }) else { return nil }
            look = Self.merged(look, rest)
            stretches = plan(v, look: look, judge: judge)
        }
        guard let stretches else { return nil }
        // A stretch's keyframes are pictures the look measured already (a stretch starts at one
        // where keyframes are a window apart): a face there that is to be embedded takes the
        // look's embedding.
        let known = Dictionary(look.map { ($0.time, $0) }) { a, _ in a }
        var frames: [ObservedFrame] = []
        if judge == nil && !v.info.isBeyondFullHD && stretches.count > 1 {
            // Anyone's stretches are many and short: two side by side keep both cores busy
            // where one's start and end would leave one idle. Beyond full HD decoding keeps
            // them busy, and a second decoder would hold its pictures too.
            guard let both = try sideBySide(v, stretches, keyframes: look.map(\.time), known: known, times: &times) else { return nil }
            frames = both
        } else {
            for stretch in stretches {
                let pass = try sample(
                    v, every: interval, from: stretch.lowerBound, to: stretch.upperBound, decode: options.decoding.options(for: v.info),
                    known: known, times: &times
                ) { _ in }
                guard pass.damage == nil else { return nil }
                frames += pass.frames
            }
        }
        // The keyframes outside the stretches stay, as evidence. Each stretch's frames are
        // together in time order, so a followed face's pointer back stays inside its stretch.
        let glimpses = look.filter { f in !stretches.contains { $0.contains(f.time) } }
        return (
            v.video((frames + glimpses).sorted { $0.time < $1.time }, duration: v.info.duration, contentKey: contentKey, stretches: stretches),
            look.count
        )
    }

    /// The stretches sampled two at a time, cut at `keyframes` into pieces (`StretchPieces`),
    /// each on a decoder and a measuring thread of its own; the frames in time order. Nil if
    /// damaged.
    private func sideBySide(
        _ v: Opened, _ stretches: [Range<Double>], keyframes: [Double], known: [Double: ObservedFrame],
        times: inout VideoAnalysis.StageTimes
    ) throws -> [ObservedFrame]? {
        var decode = options.decoding.options(for: v.info)
        decode.timeBound = v.bound
        decode.threads = 1
        let interval = 1 / options.sampleRate, side = 2
        let pieces = StretchPieces.cut(stretches, keyframes: keyframes, interval: interval, threads: side)
        return try measure(
            v, pieces, side: side, every: interval, decode: decode, borrowing: { self.borrowing(interval: interval) },
            known: known, times: &times
        ) { _ in }
    }

    /// Where the keyframes a look at every other one left out beside its `2 x candidates` best are.
    private func neighbourhoods(_ v: Opened, look: [ObservedFrame], judge: Judgement) -> [Range<Double>] {
        let glance = judge.analysis(of: v.video(look, duration: v.info.duration, contentKey: ""))
        return Refinement.neighbourhoods(
            keyframeTimes: look.map(\.time), scores: glance.frames.map { $0.score.total },
            duration: v.info.duration, count: 2 * options.refinement.candidates)
    }

    /// Two looks together in time order, each keyframe once.
    private static func merged(_ a: [ObservedFrame], _ b: [ObservedFrame]) -> [ObservedFrame] {
        let known = Set(a.map(\.time))
        return (a + b.filter { !known.contains($0.time) }).sorted { $0.time < $1.time }
    }

    /// The stretches a look at keyframes points at, for `judge`'s person or (nil) anyone; nil:
    /// sample the whole video.
    private func plan(_ v: Opened, look: [ObservedFrame], judge: Judgement?) -> [Range<Double>]? {
        guard let judge else {
            return Refinement.stretchesForAnyone(
                keyframes: look, duration: v.info.duration, windowLength: options.rules.windowLength,
                interval: 1 / options.sampleRate, judging: options.rules, rules: options.refinement)
        }
        let glance = judge.analysis(of: v.video(look, duration: v.info.duration, contentKey: ""))
        return Refinement.stretches(
            keyframeTimes: look.map { $0.time }, scores: glance.frames.map { $0.score.total },
            duration: v.info.duration, windowLength: options.rules.windowLength, interval: 1 / options.sampleRate,
            rules: options.refinement)
    }

    /// Every keyframe (`half` nil) or every other one (0 the first, third, ...; 1 the others)
    /// of the video or of `spans`, measured: two parts side by side (the halves of the video),
    /// each on a decoder of its own (a keyframe's decoder is drained after each picture, so
    /// frame threads never overlap, and one decoder would leave a core idle). A keyframe
    /// decoder holds about five pictures (HEVC makes up those an open-GOP keyframe's reference
    /// list names), so large pictures get one decoder at a time, on slice threads: on 4K 10-bit
    /// HEVC from x265 (wavefront rows) that is as fast and keeps the look within memory. Nil if
    /// damaged.
    private func lookAtKeyframes(
        _ v: Opened, half: Int?, within spans: [Range<Double>]? = nil, times: inout VideoAnalysis.StageTimes,
        progress: (Double) -> Void
    ) throws -> [ObservedFrame]? {
        var decode = options.decoding.options(for: v.info)
        decode.timeBound = v.bound
        decode.keyframesOnly = true
        decode.keyframeHalf = half
        decode.sliceThreadsOnly = true
        let duration = v.info.duration
        let side = v.info.hasLargePictures ? 1 : 2
        let parts = spans ?? (side == 1 ? [0..<duration] : [0..<duration / 2, duration / 2..<duration])
        decode.threads = side == 1 ? 0 : 1
        // Every keyframe is a sample: the interval is shorter than any frame's duration.
        return try measure(v, parts, side: side, every: 1e-4, decode: decode, borrowing: { nil }, times: &times, progress: progress)
    }

    /// `spans` of the video sampled `side` at a time, each on a reader and a measuring thread of
    /// its own (`borrowing` makes each one's following), the frames in time order; `progress`
    /// hears the seconds covered so far, all spans together; `known`: frames measured already, by
    /// time. Nil if damaged. The longest spans go first, each thread taking the next as soon as
    /// it is free: spans differ in length (anyone's stretches and their pieces, two to four
    /// seconds), and taken in pairs, one thread waited for the other's longer span.
    private func measure(
        _ v: Opened, _ spans: [Range<Double>], side: Int, every interval: Double, decode: VideoDecodeOptions,
        borrowing: () -> BorrowedEmbeddings?, known: [Double: ObservedFrame] = [:],
        times: inout VideoAnalysis.StageTimes, progress: (Double) -> Void
    ) throws -> [ObservedFrame]? {
        // Declared before the decoders, so it runs after they are gone.
        defer { FreedMemory.giveBack() }
        typealias Pass = (frames: [ObservedFrame], damage: GlimtError?)
        let order = spans.indices.sorted { a, b in
            let (la, lb) = (spans[a].upperBound - spans[a].lowerBound, spans[b].upperBound - spans[b].lowerBound)
            return la != lb ? la > lb : a < b
        }
        var results = [Result<Pass, Error>?](repeating: nil, count: spans.count)
        var partTimes = [VideoAnalysis.StageTimes](repeating: .init(), count: spans.count)
        let queue = NSLock()
        var next = 0, stop = false
        var covered = [Double](repeating: 0, count: spans.count)
        results.withUnsafeMutableBufferPointer { out in
            partTimes.withUnsafeMutableBufferPointer { t in
                let (out, t) = (out, t)
                DispatchQueue.concurrentPerform(iterations: min(side, spans.count)) { _ in
                    // Made one at a time: the video's reader hands out its open input to one of them.
                    func nextPiece() -> (i: Int, reader: Result<SampledFrames, Error>, follower: BorrowedEmbeddings?)? {
                        queue.lock()
                        defer { queue.unlock() }
                        guard !stop, next < order.count else { return nil }
                        let i = order[next]
                        next += 1
                        return (
                            i,
                            Result {
                                try v.reader.frames(
                                    every: interval, longSide: options.analysisSide, from: spans[i].lowerBound,
                                    to: spans[i].upperBound, options: decode)
                            }, borrowing()
                        )
                    }
                    // The span measured, its reader gone by the time this returns.
                    func measureNext() -> (i: Int, result: Result<Pass, Error>)? {
                        guard let (i, reader, follower) = nextPiece() else { return nil }
                        return (
                            i,
                            Result {
                                try measure(
                                    v, try reader.get(), workers: 1, alongside: min(side, spans.count), borrowing: follower,
                                    known: known, times: &t[i]
                                ) { time in
                                    queue.lock()
                                    covered[i] = time - spans[i].lowerBound
                                    progress(covered.reduce(0, +))
                                    queue.unlock()
                                }
                            }
                        )
                    }
                    while let (i, result) = measureNext() {
                        // What the span's decoder freed goes back before the next one's pictures
                        // are made: without it, decoders coming and going at different times
                        // left the heaps in pieces and the peak higher (Benchmarks/README.md).
                        FreedMemory.giveBack()
                        out[i] = result
                        // A damaged or failed span ends the pass (a look or the stretches): what the others measure is not used.
                        if case let .success(pass) = result, pass.damage == nil { continue }
                        queue.lock()
                        stop = true
                        queue.unlock()
                    }
                }
            }
        }
        for case let .failure(error)? in results { throw error }
        var frames: [ObservedFrame] = []
        for i in spans.indices {
            // A span never taken comes after a damaged one.
            guard case let .success(pass)? = results[i], pass.damage == nil else { return nil }
            times.add(partTimes[i])
            frames += pass.frames
        }
        return frames
    }

    /// One pass of sampling and measuring, the measuring on `options.workers` threads while
    /// another decodes ahead. Frames come back in time order whatever thread measured them.
    private func sample(
        _ v: Opened, every interval: Double, from start: Double = 0, to end: Double = .infinity, decode: VideoDecodeOptions,
        known: [Double: ObservedFrame] = [:], times: inout VideoAnalysis.StageTimes,
        progress: (Double) -> Void
    ) throws -> (frames: [ObservedFrame], damage: GlimtError?) {
        // Declared before the decoder, so it runs after the decoder is gone.
        defer { FreedMemory.giveBack() }
        var decode = decode
        decode.timeBound = v.bound
        let samples = try v.reader.frames(every: interval, longSide: options.analysisSide, from: start, to: end, options: decode)
        // Above 1080p decoding is the bottleneck (4K HEVC: ~27 ms a frame on two threads, against
        // ~15 ms to measure one of the 8 samples a second): one measuring thread keeps up, and a
        // second would only add its working memory (~30 MB).
        return try measure(
            v, samples, workers: v.info.isBeyondFullHD ? 1 : max(1, options.workers), borrowing: borrowing(interval: interval),
            known: known, times: &times, progress: progress)
    }

    /// With references, a face borrows only a verdict a moment's change could not flip: a clear
    /// stranger, or clearly the person (see `Identity.isSettled`). For the library, which judges
    /// references it does not know yet, a face borrows on its looks alone and keeps where from
    /// (`ObservedFace.borrowedFrom`); `docs/library.md` says what a later judgement can then
    /// differ in, as measured.
    private func borrowing(interval: Double) -> BorrowedEmbeddings? {
        guard options.followFaces, hasReferences || embedAllFaces else { return nil }
        // A sample more than one and a half intervals after the last (a gap in the video) starts
        // afresh.
        let rules = FaceTracker.Rules(maxGap: 1.5 * interval)
        if embedAllFaces { return BorrowedEmbeddings(rules: rules) { _ in true } }
        let people = self.people, thresholds = options.rules.thresholds
        // With several people, every one of them must be settled: a borrowed face near another
        // person's threshold could change whom it counts for.
        return BorrowedEmbeddings(rules: rules) { e in
            people.allSatisfy { refs in e.bestCosine(refs).map { Identity.isSettled($0, thresholds: thresholds) } ?? false }
        }
    }

    /// `borrowing`: nil embeds every face of every sample (keyframes are too far apart to follow
    /// faces). `alongside`: passes measured side by side with this one.
    private func measure(
        _ v: Opened, _ samples: SampledFrames, workers: Int, alongside: Int = 1, borrowing: BorrowedEmbeddings?,
        known: [Double: ObservedFrame] = [:], times: inout VideoAnalysis.StageTimes,
        progress: (Double) -> Void
    ) throws -> (frames: [ObservedFrame], damage: GlimtError?) {
        let shared = MeasuredFrames(workers: workers, borrowing: borrowing)
        // The cores a measuring thread's faces are embedded on: its share of them.
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount / (shared.workers * alongside))
        do {
            let ahead = Prefetcher(depth: Self.framesAhead(workers: shared.workers, info: v.info, longSide: options.analysisSide)) {
                try samples.next()
            }
            // The decoding thread stops before its timings are read, however the loop ends.
            defer { ahead.finish() }
            DispatchQueue.concurrentPerform(iterations: shared.workers) { worker in
                var local = VideoAnalysis.StageTimes()
                while let (n, sample) = shared.take(from: ahead) {
                    shared.put(
                        measure(
                            time: sample.time, image: sample.image, number: n, scale: v.scale, eyesOnDemand: v.eyesOnDemand, borrowing: borrowing,
                            known: known[sample.time],
                            cores: cores, times: &local),
                        at: n, progress: progress)
                }
                shared.add(local)
            }
        }
        if let borrowing { embed(borrowing.finish(), for: borrowing, cores: ProcessInfo.processInfo.activeProcessorCount, times: &times) }
        if let failure = shared.failure { throw failure }
        times.add(shared.times)
        times.decode += samples.decodeSeconds
        times.convert += samples.convertSeconds
        return (shared.frames, shared.damage)
    }

    /// Decoded samples waiting for a measuring thread: enough to keep every thread busy, but
    /// counted in bytes too, so a large `--side` cannot queue hundreds of megabytes.
    static let bytesAhead = 64 << 20

    static func framesAhead(workers: Int, info: VideoInfo, longSide: Int) -> Int {
        let long = max(info.displayWidth, info.displayHeight, 1), short = min(info.displayWidth, info.displayHeight)
        let side = min(longSide, long)
        let bytes = max(1, side * (short * side / long) * 3)
        return max(1, min(2 + workers, bytesAhead / bytes))
    }

    /// Whether faces are embedded: for the references, or for the library's later ones.
    private var embedsFaces: Bool { embedAllFaces || hasReferences }

    /// `known`: the frame at the sample's time as measured before (by the look), if it was.
    /// One picture at `time` (a sample of a video, or a photo at 0), already at the analysis size.
    func measure(
        time: Double, image: RGBImage, number n: Int, scale: Float, eyesOnDemand: Bool, borrowing: BorrowedEmbeddings?, known: ObservedFrame?,
        cores: Int,
        times: inout VideoAnalysis.StageTimes
    ) -> ObservedFrame {
        var t = DispatchTime.now().uptimeNanoseconds
        func lap() -> Double {
            let now = DispatchTime.now().uptimeNanoseconds
            defer { t = now }
            return Double(now - t) / 1e9
        }
        let detected = pipeline.detect(image)
        times.detect += lap()
        var records = pipeline.aligned(detected, in: image)
        times.alignEmbed += lap()
        // Eyes where a blink would show: a face that counts for them (see `Moment`), on every
        // `eyesEvery`th sample of the grid.
        let tall = Moment.eyesFromFaceHeight * Float(image.height)
        let eyesHere = !eyesOnDemand && Int((time * options.sampleRate).rounded()) % Self.eyesEvery == 0
        let eyes = records.map { r in eyesHere && r.face.box.height >= tall ? pipeline.eyes?.openness(of: r.face, in: image) : nil }
        let eyeCrops = records.map { r -> (RGBImage, RGBImage)? in
            guard eyesOnDemand && r.face.box.height >= tall else { return nil }
            let right = EyeReader.rightIsVisible(r.face.landmarks)
            return (EyeReader.crop(of: r.face, right: right, in: image), EyeReader.crop(of: r.face, right: !right, in: image))
        }
        times.eyes += lap()
        // Scored before planning, so a thread waiting for its turn has done everything else.
        let sharpness = Float(Sharpness.score(image))
        let aesthetics = Aesthetics.measure(image, sharpness: Double(sharpness))
        let signature = ShotSignature.measure(image)
        times.score += lap()
        // The same picture measured alike before (the same sharpness and boxes): a face to be
        // embedded takes the embedding made for it then, the same bits, and which faces borrow
        // is planned as ever, so the frame is what it would have been.
        let before = known.flatMap { k in
            k.sharpness == sharpness && k.faces.map(\.box) == records.map { $0.face.box.scaled(by: scale) } ? k.faces : nil
        }
        func embedFaces(where flags: [Bool]) {
            var flags = flags
            for (i, face) in (before ?? []).enumerated() where flags[i] && face.embedding != nil {
                records[i].embedding = face.embedding
                flags[i] = false
            }
            pipeline.embed(&records, where: flags, cores: cores)
            times.facesEmbedded += flags.filter { $0 }.count
        }
        if let borrowing {
            let plans = borrowing.plan(sample: n, time: time, boxes: records.map(\.face.box), crops: records.map(\.crop))
            embedFaces(where: plans.map { $0 == .measure })
            let requests = plans.enumerated().compactMap { i, plan -> BorrowedEmbeddings.Request? in
                guard case let .borrow(m, f, likeness) = plan else { return nil }
                return BorrowedEmbeddings.Request(sample: n, face: i, source: (m, f), likeness: likeness, crop: records[i].crop)
            }
            embed(borrowing.settle(sample: n, made: records.map(\.embedding), requests: requests), for: borrowing, cores: cores, times: &times)
        } else {
            embedFaces(where: records.map { _ in embedsFaces })
        }
        var faces = records.map { r in
            // Analysis frames are scaled down; boxes are kept in the video's own upright pixels.
            ObservedFace(box: r.face.box.scaled(by: scale), score: r.face.score, quality: r.quality.value, embedding: r.embedding)
        }
        for i in faces.indices {
            faces[i].eyes = eyes[i]
            faces[i].eyeCrop = eyeCrops[i]?.0
            faces[i].otherEyeCrop = eyeCrops[i]?.1
            if eyeCrops[i] != nil { faces[i].landmarks = records[i].face.landmarks }
        }
        times.alignEmbed += lap()
        times.frames += 1
        return ObservedFrame(time: time, aesthetics: aesthetics, sharpness: sharpness, faces: faces, signature: signature)
    }

    /// Embeds the faces whose request to borrow was refused.
    private func embed(_ refused: [BorrowedEmbeddings.Request], for borrowing: BorrowedEmbeddings, cores: Int, times: inout VideoAnalysis.StageTimes)
    {
        guard !refused.isEmpty else { return }
        times.facesEmbedded += refused.count
        for (request, e) in zip(refused, pipeline.embeddings(of: refused.map(\.crop), cores: cores)) { borrowing.supply(request, with: e) }
    }
}
