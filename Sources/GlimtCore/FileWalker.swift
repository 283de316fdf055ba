import Foundation

/// Finds the files a run is about: files named directly are taken as they are; folders are
/// searched recursively for names `accept` likes, skipping hidden entries. Walks with opendir and
/// lstat/stat only (no owner look-ups), follows symlinks but never into a folder it is already
/// inside (a loop), takes a file reached twice (by two paths, or a link) once, and reports every
/// folder it cannot read. Results are sorted per folder, so every run sees the same sequence.
public enum FileWalker {
    public struct Problem: Equatable, Sendable {
        public var path: String
        public var reason: String
    }

    public static func find(_ inputs: [String], accept: (String) -> Bool) -> (files: [String], problems: [Problem]) {
        var files: [String] = []
        var problems: [Problem] = []
        var seen = Set<Identity>()
        for input in inputs {
            let status: FileStatus
            do { status = try FileStatus(input) } catch let e as GlimtError {
                problems.append(Problem(path: input, reason: e.reason == "no such file" ? "no such file or folder" : e.reason))
                continue
            } catch { continue }
            if status.kind == .folder {
                walk(input, ancestors: [Identity(status)], seen: &seen, files: &files, problems: &problems, accept: accept)
            } else if seen.insert(Identity(status)).inserted {
                // Named directly: whatever it is, the analysis says what is wrong with it.
                files.append(input)
            }
        }
        return (files, problems)
    }

    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ s: FileStatus) { device = s.device; inode = s.inode }
    }

    private static func walk(_ folder: String, ancestors: Set<Identity>, seen: inout Set<Identity>, files: inout [String],
                             problems: inout [Problem], accept: (String) -> Bool) {
        guard let dir = FileName.withPath(folder, { opendir($0) }) else {
            problems.append(Problem(path: folder, reason: "cannot read this folder (\(FileStatus.reason(errno)))"))
            return
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileName.string(fromBytes: raw.prefix(while: { $0 != 0 }))
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(dir)
        for name in names.sorted() {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let status: FileStatus
            do { status = try FileStatus(path) } catch let e as GlimtError {
                // A dangling link or a loop of links: say so only where it would have been taken.
                if accept(path) || e.reason == "a symlink loop" { problems.append(Problem(path: path, reason: e.reason)) }
                continue
            } catch { continue }
            switch status.kind {
            case .folder:
                let id = Identity(status)
                guard !ancestors.contains(id) else {
                    problems.append(Problem(path: path, reason: "a symlink loop (leads back into a folder it is inside); not followed"))
                    continue
                }
                walk(path, ancestors: ancestors.union([id]), seen: &seen, files: &files, problems: &problems, accept: accept)
            case .file:
                if accept(path), seen.insert(Identity(status)).inserted { files.append(path) }
            default:
                // FIFOs, devices and sockets are never opened; one with a video's name is worth a word.
                if accept(path), let why = status.notAFile { problems.append(Problem(path: path, reason: why)) }
            }
        }
    }
}
