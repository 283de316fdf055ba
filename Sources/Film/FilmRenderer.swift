import Foundation
import GlimtCore
import Imaging
import MediaIO

/// Progress of a render, after every output frame.
public struct RenderProgress: Sendable {
    public var segment: Int
    public var segments: Int
    public var day: String
    public var framesDone: Int
    public var framesTotal: Int
    public var secondsElapsed: Double

    public var fraction: Double { framesTotal > 0 ? Double(framesDone) / Double(framesTotal) : 1 }
    public var secondsLeft: Double? { framesDone > 0 ? secondsElapsed / Double(framesDone) * Double(framesTotal - framesDone) : nil }
}

/// Cuts each day's clip from the original video (never from analysis frames), frame-accurately:
/// decoding starts at the keyframe before the cut and output frames are chosen by presentation
/// time, so every clip lasts exactly its length at the film's rate whatever the source's rate.
/// Each frame is made upright, tone-mapped when HDR, cropped, scaled, captioned; each clip's own
/// audio is resampled to 48 kHz stereo with short fades at the cuts.
///
/// The film is written to a hidden temporary file in the output's folder and renamed into place
/// only when complete: an interrupted render never leaves a half file under the output name.
///
/// Every film and preview it writes carries glimt's mark (`OwnMark`) in its metadata: one found among
/// the videos is never taken for a user's.
public struct FilmRenderer {
    public let options: FilmOptions
    /// Fade in and out at each cut, so joined clips do not click.
    public static let fadeSeconds = 0.012

    public init(options: FilmOptions) throws {
        if let problem = options.problem { throw GlimtError(problem) }
        self.options = options
    }

    /// Renders `segments` (day order) into `output`. A segment whose video cannot be read fails
    /// the film: the picks came from those files, so a change under us is an error, not a gap.
    public func render(_ segments: [FilmSegment], to output: String, progress: ((RenderProgress) -> Void)? = nil) throws {
        guard !segments.isEmpty else { throw GlimtError("no days to put in the film") }
        let url = URL(fileURLWithPath: output)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isDir), isDir.boolValue else {
            throw GlimtError("the folder for the film does not exist", path: output)
        }
        let temporary = AtomicFile.temporaryURL(for: url)
        InterruptCleanup.register(temporary.path)
        defer {
            InterruptCleanup.unregister()
            FileName.withPath(temporary.path) { _ = unlink($0) }
        }
        let writer = try FilmWriter(
            path: temporary.path, width: options.width, height: options.height, fps: options.fps,
            audio: options.hasSound, quality: FilmQuality(crf: Double(options.quality), preset: options.preset),
            tags: options.tags.merging([OwnMark.videoKey: OwnMark.text]) { _, mark in mark })
        defer { writer.cancel() }
        let perClip = options.framesPerClip
        let music =
            options.music.isEmpty
            ? nil
            : try MusicBed(
                paths: options.music, level: options.musicLevel,
                filmFrames: FilmWriter.audioSamples(forFrames: perClip * segments.count, fps: options.fps),
                speech: options.audio ? speech(in: segments) : [])
        let started = DispatchTime.now().uptimeNanoseconds
        var done = 0
        for (i, segment) in segments.enumerated() {
            try renderSegment(segment, into: writer, framesBefore: i * perClip, music: music) {
                done += 1
                progress?(
                    RenderProgress(
                        segment: i, segments: segments.count, day: segment.day, framesDone: done,
                        framesTotal: perClip * segments.count,
                        secondsElapsed: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
            }
        }
        try writer.finish()
        try AtomicFile.replace(url, with: temporary)
    }

    /// Why a clip cannot be cut (its video unreadable, its start past the end, its crop outside
    /// the picture), found before anything is written; nil when it can.
    public func problem(with s: FilmSegment) -> GlimtError? {
        do {
            if s.isPhoto { _ = try openPhoto(s) } else { _ = try open(s) }
            return nil
        } catch let error as GlimtError {
            return error
        } catch {
            return GlimtError("\(error)", path: s.video)
        }
    }

    private func open(_ s: FilmSegment) throws -> (reader: VideoReader, crop: Box) {
        if s.isPhoto { throw GlimtError("a photo, not a video", path: s.video) }
        let reader = try VideoReader(path: s.video)
        let info = reader.info
        guard s.start >= 0, s.start < info.duration else {
            throw GlimtError(String(format: "the pick starts at %.2f s, past the video's end (%.2f s)", s.start, info.duration), path: s.video)
        }
        return (reader, try fitted(s, width: info.displayWidth, height: info.displayHeight, what: "video"))
    }

    /// Picks may come from a hand-edited file: a crop must lie in the picture it crops. The crop
    /// refitted to the film's shape.
    private func fitted(_ s: FilmSegment, width: Int, height: Int, what: String) throws -> Box {
        let W = Float(width), H = Float(height)
        guard s.crop.isFinite, s.crop.x >= 0, s.crop.y >= 0, s.crop.maxX <= W + 1, s.crop.maxY <= H + 1 else {
            throw GlimtError(
                String(
                    format: "the crop %.0f,%.0f %.0fx%.0f lies outside the %@'s %dx%d picture", s.crop.x, s.crop.y,
                    s.crop.width, s.crop.height, what, width, height), path: s.video)
        }
        return FilmSegment.refit(s.crop, aspect: options.aspect, frameWidth: width, frameHeight: height)
    }

    /// A photo's picture, upright, and its crop.
    private func openPhoto(_ s: FilmSegment) throws -> (picture: RGBImage, crop: Box) {
        let picture = try ImageDecoder.decode(path: s.video)
        return (picture, try fitted(s, width: picture.width, height: picture.height, what: "photo"))
    }

    private func renderSegment(_ s: FilmSegment, into writer: FilmWriter, framesBefore: Int, music: MusicBed?, frameDone: () -> Void) throws {
        do {
            try renderWithinBound(s, into: writer, framesBefore: framesBefore, music: music, frameDone: frameDone)
        } catch let stopped as TimeBoundExceeded {
            throw stopped.error
        }
    }

    /// A photo's second: its picture, pushed toward the face (`PhotoSecond`), over silence (and
    /// the music, when there is some).
    private func renderPhoto(_ s: FilmSegment, into writer: FilmWriter, framesBefore: Int, music: MusicBed?, frameDone: () -> Void) throws {
        let opened = try openPhoto(s)
        let n = options.framesPerClip
        let caption = Caption.text(options.caption, segment: s, born: options.born)
        // Eyes aligned (`FilmSegment.crops`): the photo is held still at its crop, which may reach past it.
        if let crops = s.crops,
            var moving = MovingCrop(
                crops: crops, pictureWidth: opened.picture.width, pictureHeight: opened.picture.height, width: options.width, height: options.height)
        {
            let area = Resize.region(opened.picture, moving.region.crop, width: moving.region.width, height: moving.region.height)
            // A still picture: a frame is cut again only where its crop differs from the last.
            var last: (crop: Box, frame: RGBImage)?
            for k in 0..<n {
                let crop = crops[min(k, crops.count - 1)]
                if last?.crop != crop { last = (crop, captioned(moving.frame(k, of: area), caption)) }
                try writer.append(dipped(last!.frame, frame: k, of: n))
                frameDone()
            }
            return try appendSound([], into: writer, framesBefore: framesBefore, music: music)
        }
        let (picture, crop) = PhotoSecond.prepared(opened.picture, crop: opened.crop, filmHeight: options.height)
        for k in 0..<n {
            let frame = captioned(
                Resize.region(picture, PhotoSecond.region(crop, frame: k, of: n), width: options.width, height: options.height), caption)
            try writer.append(dipped(frame, frame: k, of: n))
            frameDone()
        }
        try appendSound([], into: writer, framesBefore: framesBefore, music: music)
    }

    private func renderWithinBound(
        _ s: FilmSegment, into writer: FilmWriter, framesBefore: Int, music: MusicBed?, frameDone: () -> Void
    ) throws {
        if s.isPhoto { return try renderPhoto(s, into: writer, framesBefore: framesBefore, music: music, frameDone: frameDone) }
        let (reader, crop) = try open(s)
        let info = reader.info
        let n = options.framesPerClip
        let speed = s.playbackSpeed
        let length = Double(n) / Double(options.fps) * speed
        let screen = ScreenPicture(info)
        let caption = Caption.text(options.caption, segment: s, born: options.born)

        // Output frame k shows the source frame on screen at start + k * speed / fps.
        // Large pictures (4K 10-bit) on slice threads: the encoder's ~65 MB sit beside the
        // decoder's ~195 MB of pictures, and frame threads would add more.
        let decode = VideoDecodeOptions(
            sliceThreadsOnly: info.hasLargePictures,
            timeBound: TimeBound.Allowance.standard.bound(forVideoSeconds: length))
        // A clip that follows the person has a crop per frame (`MovingCrop`); others one for all.
        var moving = s.crops.flatMap {
            MovingCrop(crops: $0, pictureWidth: info.displayWidth, pictureHeight: info.displayHeight, width: options.width, height: options.height)
        }
        let frames = try reader.frames(
            from: s.start, to: s.start + length, depth: screen.depth, options: decode,
            region: moving?.region ?? FrameRegion(crop: crop, width: options.width, height: options.height))
        // Decoding (and tone mapping) runs a frame ahead on its own thread while this one
        // encodes, so the two overlap on two cores whatever threads the decoder has.
        let ahead = Prefetcher(depth: 1) { try frames.next().map { (time: $0.time, picture: screen.image($0.picture)) } }
        defer { ahead.finish() }
        var k = 0
        var shown: RGBImage?
        var rendered: RGBImage?
        func emit() throws {
            guard let shown else { return }
            if moving != nil {
                rendered = captioned(moving!.frame(k, of: shown), caption)
            } else if rendered == nil {
                rendered = captioned(shown, caption)
            }
            try writer.append(dipped(rendered!, frame: k, of: n))
            k += 1
            frameDone()
        }
        let tolerance = 0.25 * speed / Double(max(options.fps, 1))
        while k < n, let f = try ahead.next() {
            let picture = f.picture
            if shown == nil {
                // The first frame also stands for any instant before it (no black lead-in).
                shown = picture
                rendered = nil
                continue
            }
            while k < n && s.start + Double(k) * speed / Double(options.fps) + tolerance < f.time { try emit() }
            shown = picture
            rendered = nil
        }
        guard shown != nil else { throw GlimtError(String(format: "no picture could be decoded at %.2f s", s.start), path: s.video) }
        while k < n { try emit() }

        // A slowed-down recording's sound is slowed too: played faster it would chirp, so its clip is silent.
        let own =
            speed != 1 || !options.audio || !options.hasSound
            ? [] : try AudioReader(path: s.video)?.samples(from: s.start, to: s.start + length) ?? []
        try appendSound(own, into: writer, framesBefore: framesBefore, music: music)
    }

    /// The clip's own sound (`samples`, interleaved stereo at 48 kHz; none: silence) made the
    /// clip's length, faded at its edges, with the music under it.
    private func appendSound(_ samples: [Float], into writer: FilmWriter, framesBefore: Int, music: MusicBed?) throws {
        let n = options.framesPerClip
        if options.hasSound {
            // Sample counts follow the frame count of the whole film, so sound never drifts from
            // pictures however the rate divides 48 kHz.
            let need =
                FilmWriter.audioSamples(forFrames: framesBefore + n, fps: options.fps)
                - FilmWriter.audioSamples(forFrames: framesBefore, fps: options.fps)
            var samples = samples
            if samples.count > 2 * need { samples.removeLast(samples.count - 2 * need) }
            if samples.count < 2 * need { samples += [Float](repeating: 0, count: 2 * need - samples.count) }
            samples = Self.faded(
                samples, rate: AudioFormat.sampleRate, seconds: options.transition == .fade ? FilmOptions.Transition.fadeSeconds : Self.fadeSeconds)
            if let music {
                let under = try music.next(need)
                for i in samples.indices { samples[i] = max(-1, min(1, samples[i] + under[i])) }
            }
            try writer.appendAudio(samples)
        }
    }

    /// Where the clips' own sound has speech (`FilmSegment.speech`), in seconds of the film.
    private func speech(in segments: [FilmSegment]) -> [Range<Double>] {
        let clip = Double(options.framesPerClip) / Double(options.fps)
        var found: [Range<Double>] = []
        for (i, s) in segments.enumerated() where s.playbackSpeed == 1 {
            for run in s.speech ?? [] {
                let a = max(run.lowerBound, s.start), b = min(run.upperBound, s.start + clip)
                if a < b { found.append((Double(i) * clip + a - s.start)..<(Double(i) * clip + b - s.start)) }
            }
        }
        return found
    }

    /// The frame (already the crop at the film's size) with its caption.
    private func captioned(_ picture: RGBImage, _ caption: String?) -> RGBImage {
        guard let caption else { return picture }
        var frame = picture
        Caption.draw(caption, on: &frame)
        return frame
    }

    /// Frame `k` of a clip of `n` dipped toward black for the `fade` transition.
    private func dipped(_ frame: RGBImage, frame k: Int, of n: Int) -> RGBImage {
        guard let dim = dip(frame: k, of: n) else { return frame }
        var dimmed = frame
        dimmed.shade(x: 0, y: 0, width: dimmed.width, height: dimmed.height, .black, alpha: dim)
        return dimmed
    }

    /// How much black frame `k` of a clip of `n` frames is dipped into, for the `fade`
    /// transition; nil for none.
    private func dip(frame k: Int, of n: Int) -> Float? {
        guard options.transition == .fade else { return nil }
        let edge = min(Double(k) + 0.5, Double(n - k) - 0.5) / (FilmOptions.Transition.fadeSeconds * Double(options.fps))
        return edge < 1 ? Float(1 - edge) : nil
    }

    /// Linear fades over `seconds` at both ends of a clip's interleaved stereo samples.
    static func faded(_ samples: [Float], rate: Int, seconds: Double = fadeSeconds) -> [Float] {
        var out = samples
        let frames = out.count / 2
        let fade = min(frames / 2, Int(seconds * Double(rate)))
        guard fade > 0 else { return out }
        for i in 0..<fade {
            let g = Float(i) / Float(fade)
            out[2 * i] *= g; out[2 * i + 1] *= g
            let j = frames - 1 - i
            out[2 * j] *= g; out[2 * j + 1] *= g
        }
        return out
    }
}
