import Analysis
import Foundation
import GlimtCore
import MediaIO

/// What a video's container and the files beside it say, read without decoding a picture: its
/// capture date and how it was recorded. The one place that knows metadata tag names; the
/// one-shot analysis and the library's scan both read videos through it, so a video's day is
/// the same whichever asks.
public struct VideoFacts: Sendable {
    public var duration: Double
    public var capture: CaptureDate
    public var recording: RecordingFacts
    /// One line for each thing in the metadata the person should hear of: a better date source
    /// passed over (see `CaptureDate.read`), the file cut short of what its index lists.
    public var notes: [String]
    /// The glimt-pure that made it ("glimt-pure 0.1.0"), when it is one of glimt's own films.
    public var madeBy: String?

    /// Opens the container (no decoding) and reads its facts.
    public static func read(path: String, timeZone: TimeZone) throws -> VideoFacts {
        try read(path: path, info: try VideoReader(path: path).info, status: try FileStatus(path), timeZone: timeZone)
    }

    static func read(path: String, info: VideoInfo, status: FileStatus, timeZone: TimeZone) throws -> VideoFacts {
        let tags = Tags(info)
        let reading = CaptureDate.read(
            quickTime: tags[Tags.quickTimeCreationDate], creationTime: tags[Tags.creationTime],
            sidecar: TakeoutSidecar.takenTime(of: path), fileName: URL(fileURLWithPath: path).lastPathComponent,
            modified: status.modified, timeZone: timeZone)
        guard let capture = reading.date else {
            throw GlimtError("no capture date (no metadata, no dated file name, no modification time)", path: path)
        }
        var notes = reading.notes
        if let end = info.cutShortAt {
            notes.append(
                String(format: "cut short: its frames end at %.1f s of the %.1f s its container gives (still being copied?)", end, info.duration))
        }
        return VideoFacts(
            duration: info.duration, capture: capture, recording: recording(path: path, info: info, tags: tags), notes: notes,
            madeBy: tags[OwnMark.videoKey].flatMap { OwnMark.maker($0) })
    }

    /// Extensions of the still a Live Photo's movie sits beside.
    static let stillExtensions = ["HEIC", "heic", "JPG", "jpg", "JPEG", "jpeg", "HEIF", "heif"]

    static func recording(path: String, info: VideoInfo, tags: Tags) -> RecordingFacts {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension()
        let still = stillExtensions.lazy.map { stem.appendingPathExtension($0).path }
            .first { (try? FileStatus($0))?.kind == .file }
        return RecordingFacts(
            fileName: url.lastPathComponent, duration: info.duration, frameRate: info.frameRate,
            width: info.displayWidth, height: info.displayHeight,
            captureRate: tags[Tags.androidCaptureRate].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) },
            contentIdentifier: tags[Tags.livePhotoPairing] != nil,
            stillImageTime: info.timedMetadataTracks > 0 && info.duration <= Recording.livePhotoMaxDuration,
            stillBeside: still.map { URL(fileURLWithPath: $0).lastPathComponent },
            cameraTags: Tags.camera.filter { tags[$0] != nil })
    }

    /// The container's and the video stream's metadata as one table: keys lower-cased, the
    /// container's value where both have one (the stream's is often only its encoder's).
    struct Tags {
        private var values: [String: String] = [:]

        init(_ info: VideoInfo) {
            for (key, value) in info.streamTags { values[key.lowercased()] = value }
            for (key, value) in info.tags { values[key.lowercased()] = value }
        }

        subscript(_ key: String) -> String? { values[key] }

        /// iPhones: local wall time with its UTC offset.
        static let quickTimeCreationDate = "com.apple.quicktime.creationdate"
        /// MP4/MOV `mvhd`, Matroska: UTC.
        static let creationTime = "creation_time"
        /// Android: the rate the camera captured at (slow motion, time-lapse).
        static let androidCaptureRate = "com.android.capture.fps"
        /// Pairs a Live Photo's movie with its still.
        static let livePhotoPairing = "com.apple.quicktime.content.identifier"
        /// Keys only cameras write: a screen recorder has no lens, place or model.
        static let camera: [String] = [
            "com.apple.quicktime.make", "com.apple.quicktime.model", "com.apple.quicktime.location.iso6709", "com.apple.quicktime.lens-model",
            "com.apple.quicktime.camera.lens_model", androidCaptureRate, "location", "location-eng", "make", "model",
        ]
    }
}
