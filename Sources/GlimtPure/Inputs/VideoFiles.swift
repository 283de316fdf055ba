import AnalysisEngine
import Foundation
import GlimtCore

/// The videos and photos some inputs name: files as given, folders searched (see `FileWalker`).
/// The scan, the film and the one-shot analysis all find their files here, so they take the same.
public enum VideoFiles {
    /// File name endings taken as videos when a folder is given.
    public static let extensions: Set<String> = ["mp4", "mov", "m4v", "mkv", "webm", "avi", "3gp", "mts", "m2ts", "mpg", "mpeg", "wmv", "hevc"]

    /// The videos found, and what could not be listed.
    public typealias Found = (files: [String], problems: [FileProblem])

    /// Photos too (JPEG, HEIC: `VideoAnalyzer.photoExtensions`): they give the days without video
    /// their second (see `PhotoUse`).
    public static func find(_ inputs: [String]) -> Found {
        let (files, problems) = FileWalker.find(inputs) { path in
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            return extensions.contains(ext) || VideoAnalyzer.photoExtensions.contains(ext)
        }
        return (files, problems.map { FileProblem(path: $0.path, reason: $0.reason) })
    }
}
