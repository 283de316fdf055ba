import Foundation

/// Recognises a video by its content, not its name: a 128-bit `StableHash` of the file's size,
/// its first MiB and its last MiB. A moved or renamed file keeps its key; an edited one (new size
/// or new ends: containers rewrite their index) gets a new one. Reading 2 MiB costs milliseconds
/// where decoding costs seconds.
public enum ContentKey {
    public static let span = 1 << 20

    public static func of(path: String) throws -> String {
        let fd = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw GlimtError("cannot read (\(FileStatus.reason(errno)))", path: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw GlimtError("is not a regular file", path: path) }
        let size = Int(st.st_size)
        var hash = StableHash()
        hash.add(UInt64(size))
        // Up to two spans the whole file is hashed, in one read.
        let whole = size <= 2 * span
        let wanted = whole ? size : span
        var buffer = [UInt8](repeating: 0, count: wanted)
        for offset in whole ? [0] : [0, size - span] {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
            guard n == wanted else {
                throw GlimtError("cannot read (\(n < 0 ? FileStatus.reason(errno) : "file changed while reading"))", path: path)
            }
            buffer.withUnsafeBytes { hash.add(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        return hash.hex
    }
}
