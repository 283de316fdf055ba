import Foundation

/// Recognises a video by its content, not its name: a 128-bit hash (two independent 64-bit
/// FNV-1a passes) of the file's size, its first MiB and its last MiB. A moved or renamed file
/// keeps its key; an edited one (new size or new ends: containers rewrite their index) gets a
/// new one. Reading 2 MiB costs milliseconds where decoding costs seconds.
public enum ContentKey {
    public static let span = 1 << 20

    public static func of(path: String) throws -> String {
        let fd = FileName.withPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw GlimtError("cannot read (\(FileStatus.reason(errno)))", path: path) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw GlimtError("is not a regular file", path: path) }
        let size = Int(st.st_size)
        var hash = Hash()
        withUnsafeBytes(of: UInt64(size).littleEndian) { hash.add($0) }
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

    struct Hash {
        // Two FNV-1a streams with different offset bases; the second also sees each byte's
        // position, so the halves do not collide together.
        private var a: UInt64 = 0xcbf2_9ce4_8422_2325
        private var b: UInt64 = 0x6c62_272e_07bb_0142
        private var count: UInt64 = 0
        private static let prime: UInt64 = 0x0000_0100_0000_01b3

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var a = self.a, b = self.b, count = self.count
            for byte in bytes {
                a = (a ^ UInt64(byte)) &* Self.prime
                b = (b ^ (UInt64(byte) &+ count)) &* Self.prime
                count &+= 1
            }
            (self.a, self.b, self.count) = (a, b, count)
        }

        var hex: String { String(format: "%016llx%016llx", a, b) }
    }
}
