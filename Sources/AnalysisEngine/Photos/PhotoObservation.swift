import Analysis
import Foundation
import GlimtCore
import Imaging
import MediaIO

/// A photo observed for the library like a one-frame video: its picture measured as a sample is
/// (faces with their embeddings, eyes, looks, sharpness) at time 0, dated like a video (its EXIF
/// time, a Takeout sidecar, its name, its file's time), and kept with `RecordingFacts.photo`, so
/// a later reference judges it without decoding, as it judges videos. One picture is one frame:
/// the rules then need the strong cosine to say it shows the person (see `Identity`).
extension VideoAnalyzer {
    /// Photos by name (see `PhotoFile`), for the scan that takes them beside the videos.
    public static let photoExtensions = PhotoFile.extensions

    public static func isPhoto(_ path: String) -> Bool { PhotoFile.isPhoto(path) }

    /// A photo is looked at on a picture this many times the videos' analysis side: photos are
    /// sharper and larger than video frames, and a child among others in a group photo has a
    /// face too small at the video side to be told from the others.
    static let photoSideFactor = 2

    /// Movie endings a Live Photo's still has beside it.
    static let movieExtensions = ["MOV", "mov", "MP4", "mp4"]

    /// Throws `GlimtFilm` for a picture glimt drew (a sheet found among the photos), a
    /// `GlimtError` naming the file when it cannot be read or dated.
    public func observePhoto(path: String, contentKey: String) throws -> ObservedVideo {
        if let maker = OwnMark.maker(stillAt: path) { throw GlimtFilm(path: path, maker: maker, isStill: true) }
        let status = try FileStatus(path)
        let photo = try Photo(path: path)
        let url = URL(fileURLWithPath: path)
        let reading = try Self.dated(photo, status: status, timeZone: options.timeZone)
        let movie = Self.movie(beside: path)
        let capture = Self.capture(reading.date!, movie: movie, timeZone: options.timeZone)
        let image = photo.image
        let long = max(image.width, image.height), side = options.analysisSide * Self.photoSideFactor
        var times = VideoAnalysis.StageTimes()
        let frame = measure(
            time: 0, image: Resize.fitting(image, longSide: side), number: 0,
            scale: Float(long) / Float(min(side, long)), eyesOnDemand: false, borrowing: nil, known: nil,
            cores: ProcessInfo.processInfo.activeProcessorCount, times: &times)
        var observed = ObservedVideo(
            contentKey: contentKey, path: path, size: status.size, modified: status.modified.timeIntervalSince1970, capture: capture,
            duration: 0, width: image.width, height: image.height, rotation: 0, codec: url.pathExtension.lowercased(), hdr: false,
            recording: RecordingFacts(
                fileName: url.lastPathComponent, duration: 0, frameRate: 0, width: image.width, height: image.height, photo: true,
                movieBeside: movie.map { URL(fileURLWithPath: $0).lastPathComponent }),
            method: options.method, frames: [frame], notes: reading.notes)
        observed.takeShotChanges(interval: 1)
        return observed
    }

    /// A photo observed, judged for the people this analyzer looks for (a one-shot run's photo).
    public func judged(_ photo: ObservedVideo) -> VideoAnalysis {
        Judgement(people: people, person: person, rules: options.rules).analysis(of: photo)
    }

    /// A stored photo's day read again in `timeZone` (its picture decoded for its EXIF).
    public static func photoDate(path: String, timeZone: TimeZone) throws -> CaptureDate {
        capture(
            try dated(try Photo(path: path), status: try FileStatus(path), timeZone: timeZone).date!, movie: movie(beside: path), timeZone: timeZone)
    }

    /// A Live Photo's movie beside `path`: the same name with a movie's ending.
    static func movie(beside path: String) -> String? {
        let stem = URL(fileURLWithPath: path).deletingPathExtension()
        return movieExtensions.lazy.map { stem.appendingPathExtension($0).path }.first { (try? FileStatus($0))?.kind == .file }
    }

    /// A Live Photo's still dated only by its name or its file's time (an export that lost its
    /// EXIF) takes its movie's date when the movie has a better one: the two are one moment.
    static func capture(_ own: CaptureDate, movie: String?, timeZone: TimeZone) -> CaptureDate {
        guard let movie, own.source == .modificationTime || own.source == .fileName,
            let theirs = try? VideoFacts.read(path: movie, timeZone: timeZone).capture,
            theirs.source != .modificationTime && theirs.source != .fileName
        else { return own }
        return theirs
    }

    /// Its day as its sources give it; throws when none does.
    private static func dated(_ photo: Photo, status: FileStatus, timeZone: TimeZone) throws -> CaptureDate.Reading {
        let reading = CaptureDate.read(
            exif: photo.taken, quickTime: nil, creationTime: nil, sidecar: TakeoutSidecar.takenTime(of: photo.path),
            fileName: URL(fileURLWithPath: photo.path).lastPathComponent, modified: status.modified, timeZone: timeZone)
        guard reading.date != nil else {
            throw GlimtError("no capture date (no EXIF date, no dated file name, no modification time)", path: photo.path)
        }
        return reading
    }
}
