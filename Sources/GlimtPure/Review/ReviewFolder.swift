import Foundation
import GlimtCore

/// The folder a review is written into, held like every other output: glimt writes and removes
/// only files it can prove it made there, and nothing through a link.
///
/// The proof is its record, `.glimt-review`: every file it wrote, by content key, size and name.
/// A file is glimt's while it is still those bytes; anything else (a file of the person's, a
/// damaged thumbnail, a link put in place of a page) is named and left alone. A file's line is
/// added to the record before the file is moved into place, so a run killed at any moment leaves
/// no file of its own unrecorded, and the record is written afresh at the end of a run.
/// Everything goes through descriptors of the folder and its subfolders opened without following
/// links; a new file is linked into place, which never replaces a file that appeared meanwhile.
/// One review writes into a folder at a time (a lock on the folder, which the kernel drops when
/// the process dies).
final class ReviewFolder {
    static let record = ".glimt-review"
    static let subfolders = ["assets", "data", "thumbs", "previews"]
    /// The record's first line, which also tells a person what the file is.
    static let heading =
        "glimt-pure review 2: the files 'glimt-pure review' wrote in this folder, as content key, size and name; "
        + "it replaces and removes only these, and only while they are as it wrote them"
    /// The whole record of a review written before there was a record.
    static let earlierMarker = "glimt-pure review: this folder is written by 'glimt-pure review'"
    /// Work in progress in the folder: no file of the review's is named so, nor is anyone's.
    static let temporaryPrefix = ".glimt-review-tmp-"
    /// A record of a year's review is some hundred kilobytes.
    static let maxRecordBytes = 64 << 20

    /// A file as glimt wrote it.
    struct Version: Hashable {
        let key: String
        let size: Int64
    }

    enum State {
        case absent
        /// glimt's, as it wrote it.
        case ours
        /// Someone else's, or no longer as glimt wrote it: why, to be told.
        case notOurs(String)
    }

    let url: URL
    private let reads: ReadFiles
    /// The folder ("") and its subfolders, by name.
    private var descriptors: [String: Int32] = [:]
    /// Every version of each file the record names (a run killed while replacing a file leaves
    /// the old and the new one named).
    private var recorded: [String: Set<Version>] = [:]
    /// The files glimt's now, as they are.
    private var present: [String: Version] = [:]
    private var removed = Set<String>()
    private var journal: Int32 = -1
    private let lock = NSLock()
    /// The library's store answers one question at a time.
    private let readsLock = NSLock()

    /// The checks that need nothing written, for before the work starts: a new folder, an empty
    /// one, or a review already (a folder of someone else's only with `overwrite`), whose
    /// subfolders are folders and not links, and whose record glimt can read.
    static func check(_ url: URL, overwrite: Bool) throws {
        guard let status = try? FileStatus(url.path) else {
            let parent = url.deletingLastPathComponent().path
            guard (try? FileStatus(parent))?.kind == .folder else {
                throw GlimtError("the folder for the review is in a folder that does not exist", path: url.path)
            }
            guard access(parent, W_OK | X_OK) == 0 else {
                throw GlimtError("cannot write into its folder (\(FileStatus.reason(errno)))", path: url.path)
            }
            return
        }
        guard status.kind == .folder else { throw GlimtError("is not a folder; give a folder for the review (--out DIR)", path: url.path) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        if entries.contains(record) {
            _ = try readRecord(at: url.appendingPathComponent(record).path)
        } else if !entries.isEmpty && !overwrite {
            throw GlimtError(
                "is not empty and holds no glimt review; give a new or empty folder, or add -y to write the review into it", path: url.path)
        }
        for sub in subfolders {
            if let why = notAFolder(url.appendingPathComponent(sub).path) { throw GlimtError(why, path: url.appendingPathComponent(sub).path) }
        }
    }

    /// Opens the folder (made when it does not exist) for writing, under its lock.
    init(url: URL, reads: ReadFiles) throws {
        self.url = url
        self.reads = reads
        if FileName.withPath(url.path, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw GlimtError("cannot make the folder (\(FileStatus.reason(errno)))", path: url.path)
        }
        // The folder itself is the one the person named, through a link if they gave one.
        let root = FileName.withPath(url.path) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard root >= 0 else { throw GlimtError("cannot open the folder (\(FileStatus.reason(errno)))", path: url.path) }
        descriptors[""] = root
        guard flock(root, LOCK_EX | LOCK_NB) == 0 else {
            throw GlimtError("another 'glimt-pure review' is writing into this folder now; run this one when it has finished", path: url.path)
        }
        recorded = try Self.readRecord(at: "/proc/self/fd/\(root)/\(Self.record)", shown: url.appendingPathComponent(Self.record).path) ?? [:]
        for sub in Self.subfolders {
            let shown = url.appendingPathComponent(sub).path
            if let why = Self.notAFolder("/proc/self/fd/\(root)/\(sub)") { throw GlimtError(why, path: shown) }
            if mkdirat(root, sub, 0o755) != 0 && errno != EEXIST {
                throw GlimtError("cannot make the folder (\(FileStatus.reason(errno)))", path: shown)
            }
            let fd = openat(root, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                throw GlimtError(
                    errno == ELOOP || errno == ENOTDIR
                        ? "is not the review's own folder (a link, or a file); glimt-pure review writes nothing through it"
                        : "cannot open the folder (\(FileStatus.reason(errno)))", path: shown)
            }
            descriptors[sub] = fd
        }
        for (_, fd) in descriptors { removeWorkInProgress(in: fd) }
        if recorded.isEmpty && !exists(Self.record, in: root) {
            try placeNew(Array((Self.heading + "\n").utf8), as: Self.record, in: root)
        }
        journal = openat(root, Self.record, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard journal >= 0 else {
            throw GlimtError("cannot write the review's record (\(FileStatus.reason(errno)))", path: url.appendingPathComponent(Self.record).path)
        }
    }

    deinit {
        if journal >= 0 { close(journal) }
        for (_, fd) in descriptors { close(fd) }
    }

    /// What is at `relative` (a name in the folder, or "thumbs/NAME" in one of its subfolders).
    func state(_ relative: String) -> State {
        let (fd, name) = place(relative)
        var st = stat()
        guard FileName.withPath(name, { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            return errno == ENOENT ? .absent : .notOurs("cannot be looked at (\(FileStatus.reason(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK:
            return .notOurs(
                "is a symbolic link"
                    + (hit(relative).map { " to \($0.what) (\(ShownPath.escaped($0.path))), which this run reads" }
                        ?? ", which glimt-pure review never writes through"))
        case S_IFDIR: return .notOurs("is a folder")
        default: return .notOurs("is not a regular file")
        }
        let versions = lock.withLock { recorded[relative] }
        guard let versions else {
            return .notOurs(
                "was not written by glimt-pure review"
                    + (hit(relative).map { ", and is \($0.what) (\(ShownPath.escaped($0.path))), which this run reads" } ?? ""))
        }
        guard let now = version(of: name, in: fd), versions.contains(now) else {
            return .notOurs("has changed since glimt-pure review wrote it (damaged or edited: remove it to have it made again)")
        }
        lock.withLock { present[relative] = now }
        return .ours
    }

    /// The line for a file left alone.
    func leftAlone(_ relative: String, _ why: String) -> GlimtError {
        GlimtError(why + "; left alone", path: path(relative))
    }

    /// Writes `bytes` as `relative` when nothing is there or glimt's own file is; else says why not.
    func write(_ bytes: [UInt8], to relative: String) throws -> GlimtError? {
        try put(relative) { fd, temporary in
            let out = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard out >= 0 else { throw GlimtError("cannot write (\(FileStatus.reason(errno)))", path: path(relative)) }
            let failure = AtomicFile.writeAll(bytes, to: out)
            if failure != 0 { throw GlimtError("cannot write: \(String(cString: strerror(failure)))", path: path(relative)) }
        }
    }

    /// Like `write`, for a writer that takes a path (the previews' renderer): `body` writes the
    /// whole file at the path it is given, which reaches the folder opened, whatever is put in
    /// its place meanwhile.
    func make(_ relative: String, by body: (String) throws -> Void) throws -> GlimtError? {
        try put(relative) { fd, temporary in try body("/proc/self/fd/\(fd)/\(temporary)") }
    }

    /// Removes glimt's own file `relative`; says why not when it is not.
    func remove(_ relative: String) -> GlimtError? {
        switch state(relative) {
        case .absent: return nil
        case .notOurs(let why): return leftAlone(relative, why)
        case .ours:
            if let read = hit(relative) { return leftAlone(relative, "is \(read.what) (\(ShownPath.escaped(read.path))), which this run reads") }
            let (fd, name) = place(relative)
            guard FileName.withPath(name, { unlinkat(fd, $0, 0) }) == 0 else {
                return GlimtError("cannot remove (\(FileStatus.reason(errno)))", path: path(relative))
            }
            lock.withLock {
                present[relative] = nil
                removed.insert(relative)
            }
            return nil
        }
    }

    /// The names in a subfolder, work in progress left out.
    func names(in sub: String) -> [String] {
        guard let fd = descriptors[sub] else { return [] }
        return Self.list(fd).filter { !Self.isWorkInProgress($0) }.sorted()
    }

    /// Writes the record afresh: the files glimt's now, and only those.
    func finish() throws {
        let root = descriptors[""]!
        // What the run did not look at (another year's page) is glimt's while it is as written.
        let unseen = lock.withLock { recorded.keys.filter { present[$0] == nil && !removed.contains($0) } }
        for relative in unseen { _ = state(relative) }
        let lines = lock.withLock { present.sorted { $0.key < $1.key }.map { "\($0.value.key) \($0.value.size) \($0.key)\n" } }
        let temporary = Self.temporaryPrefix + "\(getpid())-record"
        defer { _ = unlinkat(root, temporary, 0) }
        try writeNew(Array((Self.heading + "\n" + lines.joined()).utf8), as: temporary, in: root)
        guard renameat(root, temporary, root, Self.record) == 0 else {
            throw GlimtError("cannot write the review's record (\(FileStatus.reason(errno)))", path: url.appendingPathComponent(Self.record).path)
        }
    }

    // MARK: - Within the folder

    private func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Which file of the run's own reading `relative` is, through any link.
    private func hit(_ relative: String) -> (path: String, what: String)? {
        readsLock.withLock { reads.hit(path(relative)) }
    }

    /// The descriptor of the folder a relative name is in, and its last part.
    private func place(_ relative: String) -> (Int32, String) {
        let parts = relative.split(separator: "/", maxSplits: 1).map(String.init)
        return parts.count == 2 ? (descriptors[parts[0]]!, parts[1]) : (descriptors[""]!, relative)
    }

    private func exists(_ name: String, in fd: Int32) -> Bool {
        var st = stat()
        return FileName.withPath(name, { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0 || errno != ENOENT
    }

    /// The content key and size of a regular file, read without following a link.
    private func version(of name: String, in fd: Int32) -> Version? {
        let file = FileName.withPath(name) { openat(fd, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard file >= 0 else { return nil }
        defer { close(file) }
        var st = stat()
        guard fstat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        // The descriptor's own file, whatever its name leads to by now.
        guard let key = try? ContentKey.of(path: "/proc/self/fd/\(file)") else { return nil }
        return Version(key: key, size: Int64(st.st_size))
    }

    /// Makes the file in a temporary of its own, records it, and moves it into place: linked
    /// where nothing was (so nothing that appeared meanwhile is replaced), renamed over glimt's
    /// own file.
    private func put(_ relative: String, _ fill: (Int32, String) throws -> Void) throws -> GlimtError? {
        let before = state(relative)
        switch before {
        case .notOurs(let why): return leftAlone(relative, why)
        case .ours:
            if let read = hit(relative) { return leftAlone(relative, "is \(read.what) (\(ShownPath.escaped(read.path))), which this run reads") }
        case .absent: break
        }
        let (fd, name) = place(relative)
        let ext = URL(fileURLWithPath: name).pathExtension
        let temporary = Self.temporaryPrefix + "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))" + (ext.isEmpty ? "" : "." + ext)
        defer { _ = unlinkat(fd, temporary, 0) }
        try fill(fd, temporary)
        guard let version = version(of: temporary, in: fd) else { throw GlimtError("cannot read back what was written", path: path(relative)) }
        try note(relative, version)
        if case .absent = before {
            if linkat(fd, temporary, fd, name, 0) != 0 {
                let failure = errno
                if failure == EEXIST { return leftAlone(relative, "appeared while the review was being written") }
                // A file system without hard links (FAT): looked at again, then renamed.
                guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK].contains(failure), !exists(name, in: fd), renameat(fd, temporary, fd, name) == 0 else {
                    throw GlimtError("cannot move the finished file into place (\(FileStatus.reason(failure)))", path: path(relative))
                }
            }
        } else {
            guard renameat(fd, temporary, fd, name) == 0 else {
                throw GlimtError("cannot move the finished file into place (\(FileStatus.reason(errno)))", path: path(relative))
            }
        }
        lock.withLock {
            present[relative] = version
            removed.remove(relative)
        }
        return nil
    }

    /// Adds a file's line to the record (before the file is in place).
    private func note(_ relative: String, _ version: Version) throws {
        try lock.withLock {
            let line = Array("\(version.key) \(version.size) \(relative)\n".utf8)
            let n = line.withUnsafeBytes { Foundation.write(journal, $0.baseAddress!, $0.count) }
            guard n == line.count else {
                throw GlimtError("cannot write the review's record (\(FileStatus.reason(errno)))", path: url.appendingPathComponent(Self.record).path)
            }
            recorded[relative, default: []].insert(version)
        }
    }

    /// Writes a new file (one that must not exist) under `name`, flushed to disk.
    private func writeNew(_ bytes: [UInt8], as name: String, in fd: Int32) throws {
        let out = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard out >= 0 else { throw GlimtError("cannot write (\(FileStatus.reason(errno)))", path: url.appendingPathComponent(name).path) }
        defer { close(out) }
        let n = bytes.withUnsafeBytes { Foundation.write(out, $0.baseAddress!, $0.count) }
        guard n == bytes.count, fsync(out) == 0 else {
            throw GlimtError("cannot write (\(FileStatus.reason(errno)))", path: url.appendingPathComponent(name).path)
        }
    }

    /// A new file under `name`, which nothing may be at.
    private func placeNew(_ bytes: [UInt8], as name: String, in fd: Int32) throws {
        let temporary = Self.temporaryPrefix + "\(getpid())-new"
        defer { _ = unlinkat(fd, temporary, 0) }
        try writeNew(bytes, as: temporary, in: fd)
        guard linkat(fd, temporary, fd, name, 0) == 0 || (errno != EEXIST && !exists(name, in: fd) && renameat(fd, temporary, fd, name) == 0) else {
            throw GlimtError("cannot write the review's record (\(FileStatus.reason(errno)))", path: url.appendingPathComponent(name).path)
        }
    }

    /// The names in the folder `fd` is open on, as bytes (a name need not be UTF-8).
    private static func list(_ fd: Int32) -> [String] {
        let own = dup(fd)
        guard own >= 0, let dir = fdopendir(own) else { return [] }
        defer { closedir(dir) }
        // The copy shares the descriptor's place in the folder, where an earlier listing ended.
        rewinddir(dir)
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in FileName.string(fromBytes: raw.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func isWorkInProgress(_ name: String) -> Bool {
        name.hasPrefix(temporaryPrefix) || name.hasPrefix("." + temporaryPrefix)
    }

    /// What a run killed while it wrote left (the renderer's `.NAME.PID.partial` of a temporary
    /// is named after it): under the lock, no one else is writing.
    private func removeWorkInProgress(in fd: Int32) {
        for name in Self.list(fd) where Self.isWorkInProgress(name) {
            var st = stat()
            if fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFREG { _ = unlinkat(fd, name, 0) }
        }
    }

    // MARK: - The record

    /// Why `path` cannot be a subfolder of the review (a link, a file); nil for a folder or nothing.
    private static func notAFolder(_ path: String) -> String? {
        var st = stat()
        guard FileName.withPath(path, { lstat($0, &st) }) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return nil
        case S_IFLNK:
            return
                "is a symbolic link, not the review's own folder; glimt-pure review writes nothing through a link (remove it, or give another --out)"
        default: return "is not a folder, and the review needs a folder of its own there (remove it, or give another --out)"
        }
    }

    /// The record's files and their versions; nil when there is none. A record glimt cannot read
    /// is one line: nothing in the folder could be proven glimt's.
    static func readRecord(at path: String, shown: String? = nil) throws -> [String: Set<Version>]? {
        let shown = shown ?? path
        let fd = FileName.withPath(path) { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw GlimtError(
                errno == ELOOP
                    ? "is a symbolic link, not the review's record of its files; remove it, or give another --out"
                    : "cannot read the review's record of its files (\(FileStatus.reason(errno)))", path: shown)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= maxRecordBytes else {
            throw GlimtError("is not the review's record of its files; remove it, or give another --out", path: shown)
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n == bytes.count else { throw GlimtError("cannot read the review's record of its files", path: shown) }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix(earlierMarker) {
            throw GlimtError(
                "holds a review written by an earlier glimt-pure, which kept no record of its files, so none of them can be "
                    + "replaced; remove the folder's review files, or give a new folder", path: shown)
        }
        // The last piece is empty, or a line a killed run did not finish: not a line.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.first.map({ $0 == heading }) == true else {
            throw GlimtError("is not the review's record of its files; remove it, or give another --out", path: shown)
        }
        lines = lines.dropFirst()
        var files: [String: Set<Version>] = [:]
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit), let size = Int64(parts[1]), isOwnName(parts[2]) else {
                continue
            }
            files[String(parts[2]), default: []].insert(Version(key: String(parts[0]), size: size))
        }
        return files
    }

    /// A name the review may have written: in the folder or one of its subfolders, not hidden.
    private static func isOwnName(_ s: Substring) -> Bool {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { return false }
        return parts.count == 1 || subfolders.contains(String(parts[0]))
    }
}
