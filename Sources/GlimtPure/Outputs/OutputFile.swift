import Foundation
import GlimtCore

/// What every output (film, contact sheet) must be, checked before any work starts: a file name
/// with an extension of its kind, in a folder that exists and takes new files, not a folder or a
/// device, and not an existing file unless the person said to replace it.
public enum OutputFile {
    public static func check(_ output: String, extensions: [String], what: String, overwrite: Bool) throws {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard extensions.contains(ext) else {
            throw GlimtError(
                "\(what) is written as \(extensions.map { ".\($0)" }.joined(separator: " or ")), and this name ends in '\(ext.isEmpty ? "nothing" : "." + ext)'",
                path: output)
        }
        if let status = try? FileStatus(output) {
            switch status.kind {
            case .folder: throw GlimtError("is a folder; give a file name", path: output)
            case .file: if !overwrite { throw GlimtError("already exists; add -y (--overwrite) to replace it", path: output) }
            default: throw GlimtError("\(status.notAFile ?? "is not a regular file"); give a file name", path: output)
            }
        }
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        guard let status = try? FileStatus(folder), status.kind == .folder else {
            throw GlimtError("the folder for \(what) does not exist", path: output)
        }
        guard access(folder, W_OK | X_OK) == 0 else { throw GlimtError("cannot write into its folder (\(FileStatus.reason(errno)))", path: output) }
    }
}
