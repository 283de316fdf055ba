import Foundation

/// Finds the files a run is about: files named directly are taken as they are; folders are
/// searched recursively for names `accept` likes, skipping hidden entries. Walks with opendir and
/// stat only (no owner look-ups), follows symlinks but walks each real folder once (by
/// device and inode: links to a folder from many places, even 2^24 paths through a maze of
/// them, cost one visit), says a link back into a folder it is inside, and reports every folder
/// it cannot read. A file reached by a second path (a hard link, a link to it) is listed under
/// each: the callers recognise the copy by its content and name it in its line. Folders are
/// read through open folder descriptors (openat, fstatat), so a tree deeper than PATH_MAX is
/// walked to the end, and each video in it whose path no program can open is named. The kernel's
/// pseudo-filesystems (/proc, /sys, /dev...; by the mount table's type of their device) hold no
/// one's videos and can lead back to / (as /proc/self/root does): they are not walked, with one
/// line. Results are sorted per folder,
/// so every run sees the same sequence.
public enum FileWalker {
    public struct Problem: Equatable, Sendable {
        public var path: String
        public var reason: String
    }

    /// `stop` is asked at every entry: when it says so, the walk ends at once with what it has
    /// found (a scan stopped by Ctrl-C or SIGTERM while it looks for videos).
    public static func find(
        _ inputs: [String], stop: () -> Bool = { StopRequest.isRequested },
        accept: (String) -> Bool
    ) -> (files: [String], problems: [Problem]) {
        withoutActuallyEscaping(stop) { stop in
            withoutActuallyEscaping(accept) { accept in walk(inputs, stop: stop, accept: accept) }
        }
    }

    private static func walk(
        _ inputs: [String], stop: @escaping () -> Bool, accept: @escaping (String) -> Bool
    ) -> (files: [String], problems: [Problem]) {
        var walk = Walk(stop: stop, accept: accept)
        for input in inputs {
            if walk.stopped() { break }
            let status: FileStatus
            do { status = try FileStatus(input) } catch let e as GlimtError {
                walk.problems.append(Problem(path: input, reason: e.reason == "no such file" ? "no such file or folder" : e.reason))
                continue
            } catch { continue }
            if let kernel = walk.kernelFilesystem(input, status: status, parent: nil) {
                walk.problems.append(Problem(path: input, reason: Walk.notWalked(kernel, folder: status.kind == .folder)))
            } else if status.kind == .folder {
                let fd = FileName.withPath(input) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
                guard fd >= 0 else {
                    walk.problems.append(Problem(path: input, reason: "cannot read this folder (\(FileStatus.reason(errno)))"))
                    continue
                }
                walk.folder(input, fd: fd, status: status, ancestors: [])
                close(fd)
            } else if walk.taken.insert(input).inserted {
                // Named directly: whatever it is, the analysis says what is wrong with it.
                walk.files.append(input)
            }
        }
        return (walk.files, walk.problems)
    }

    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
        init(_ s: FileStatus) { device = s.device; inode = s.inode }
    }

    private struct Walk {
        let stop: () -> Bool
        let accept: (String) -> Bool
        var files: [String] = []
        var problems: [Problem] = []
        /// Paths taken, and folders walked: each once.
        var taken = Set<String>()
        var walked = Set<Identity>()
        var mounts: [UInt64: String]?
        private var stopRequested = false

        init(stop: @escaping () -> Bool, accept: @escaping (String) -> Bool) {
            self.stop = stop
            self.accept = accept
        }

        mutating func stopped() -> Bool {
            if !stopRequested && stop() { stopRequested = true }
            return stopRequested
        }

        static func notWalked(_ kernel: String, folder: Bool) -> String {
            "the kernel's \(kernel) filesystem, not a \(folder ? "folder of videos; not walked" : "video; not read")"
        }

        /// Walks the open folder `fd`, whose path is `folder` (which may be too long to open).
        mutating func folder(_ folder: String, fd: Int32, status: FileStatus, ancestors: [Identity]) {
            let id = Identity(status)
            guard walked.insert(id).inserted else { return }
            let listing = dup(fd)
            guard listing >= 0, let dir = fdopendir(listing) else {
                if listing >= 0 { close(listing) }
                problems.append(Problem(path: folder, reason: "cannot read this folder (\(FileStatus.reason(errno)))"))
                return
            }
            var names: [String] = []
            while let entry = readdir(dir) {
                if stopped() { break }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    FileName.string(fromBytes: raw.prefix(while: { $0 != 0 }))
                }
                if name.hasPrefix(".") { continue }
                names.append(name)
            }
            closedir(dir)
            let inside = ancestors + [id]
            for name in names.sorted() {
                if stopped() { return }
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                let entry: FileStatus
                do { entry = try FileStatus(in: fd, name: name, path: path) } catch let e as GlimtError {
                    // A dangling link or a loop of links: say so only where it would have been taken.
                    if accept(path) || e.reason == "a symlink loop" { problems.append(Problem(path: path, reason: e.reason)) }
                    continue
                } catch { continue }
                switch entry.kind {
                case .folder:
                    if inside.contains(Identity(entry)) {
                        problems.append(Problem(path: path, reason: "a symlink loop (leads back into a folder it is inside); not followed"))
                    } else if let kernel = kernelFilesystem(path, status: entry, parent: status) {
                        problems.append(Problem(path: path, reason: Self.notWalked(kernel, folder: true)))
                    } else if !walked.contains(Identity(entry)) {
                        // Reached again by another link: its files were found the first time.
                        let sub = FileName.withPath(name) { openat(fd, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
                        guard sub >= 0 else {
                            problems.append(Problem(path: path, reason: "cannot read this folder (\(FileStatus.reason(errno)))"))
                            continue
                        }
                        self.folder(path, fd: sub, status: entry, ancestors: inside)
                        close(sub)
                    }
                case .file:
                    guard accept(path), taken.insert(path).inserted else { continue }
                    if FileName.bytes(path).count >= Int(PATH_MAX) {
                        problems.append(Problem(path: path, reason: Self.tooLong(path)))
                    } else {
                        files.append(path)
                    }
                default:
                    // FIFOs, devices and sockets are never opened; one with a video's name is worth a word.
                    if accept(path), let why = entry.notAFile { problems.append(Problem(path: path, reason: why)) }
                }
            }
        }

        /// A file deeper than any program can name: the decoder opens files by path.
        static func tooLong(_ path: String) -> String {
            "name too long: its path is \(FileName.bytes(path).count) bytes, and the system opens paths of up to \(Int(PATH_MAX) - 1); not read"
        }

        /// The name of the kernel pseudo-filesystem a folder or file lies on, or nil. Asked only
        /// where a mount may begin: for what is named directly and where the device changes.
        /// The type is the mount table's, matched by device: Swift's Glibc has no statfs(2)
        /// (only statvfs, which carries no type), and the table names the same types.
        mutating func kernelFilesystem(_ path: String, status: FileStatus, parent: FileStatus?) -> String? {
            if let parent, parent.device == status.device { return nil }
            guard let type = mountType(status.device), Self.kernel.contains(type) else { return nil }
            return type
        }

        /// The filesystems the kernel makes up from its own state: no one's videos are there.
        static let kernel: Set<String> = [
            "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "pstore", "bpf",
            "configfs", "fusectl", "binfmt_misc", "selinuxfs", "smackfs", "mqueue", "efivarfs", "nsfs", "rpc_pipefs",
        ]

        /// The type /proc/self/mountinfo gives the mount of `device` (read once a walk).
        mutating func mountType(_ device: UInt64) -> String? {
            if mounts == nil {
                var table: [UInt64: String] = [:]
                let text = FileName.string(fromBytes: Self.kernelFile("/proc/self/mountinfo"))
                for line in text.split(separator: "\n") {
                    let fields = line.split(separator: " ")
                    // The type follows the "-" that ends the optional fields, from the seventh on.
                    guard fields.count > 7, let dash = fields[6...].firstIndex(of: "-"), dash + 1 < fields.count else { continue }
                    let numbers = fields[2].split(separator: ":").compactMap { UInt64($0) }
                    guard numbers.count == 2 else { continue }
                    let (major, minor) = (numbers[0], numbers[1])
                    // glibc's makedev.
                    let dev = ((major & 0xFFF) << 8) | ((major & ~0xFFF) << 32) | (minor & 0xFF) | ((minor & ~0xFF) << 12)
                    table[dev] = String(fields[dash + 1])
                }
                mounts = table
            }
            return mounts?[device]
        }

        /// A file the kernel writes as it is read (its size says 0), up to 4 MB.
        static func kernelFile(_ path: String) -> [UInt8] {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var out: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
            while out.count < 4 << 20 {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                out += chunk[0..<n]
            }
            return out
        }
    }
}
