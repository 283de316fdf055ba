import Analysis
import Foundation
import GlimtCore
import MediaIO

/// Reads a video's `RecordingFacts` from its metadata and the files beside it: no decoding.
enum RecordingFactsReader {
    /// Extensions of the still a Live Photo's movie sits beside.
    static let stillExtensions = ["HEIC", "heic", "JPG", "jpg", "JPEG", "jpeg", "HEIF", "heif"]

    static func read(path: String, info: VideoInfo) -> RecordingFacts {
        var tags: [String: String] = [:]
        for (key, value) in info.streamTags { tags[key.lowercased()] = value }
        for (key, value) in info.tags { tags[key.lowercased()] = value }
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension()
        let still = stillExtensions.lazy.map { stem.appendingPathExtension($0).path }
            .first { (try? FileStatus($0))?.kind == .file }
        return RecordingFacts(fileName: url.lastPathComponent, duration: info.duration, frameRate: info.frameRate,
                              width: info.displayWidth, height: info.displayHeight,
                              captureRate: tags["com.android.capture.fps"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) },
                              contentIdentifier: tags["com.apple.quicktime.content.identifier"] != nil,
                              stillImageTime: info.timedMetadataTracks > 0 && info.duration <= Recording.livePhotoMaxDuration,
                              stillBeside: still.map { URL(fileURLWithPath: $0).lastPathComponent },
                              cameraTags: RecordingFacts.cameraKeys.filter { tags[$0] != nil })
    }
}
