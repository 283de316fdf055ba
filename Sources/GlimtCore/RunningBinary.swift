import Foundation

/// The file of the program running now, symbolic links resolved (a link in ~/bin to an installed
/// binary is that binary), from /proc/self/exe: what sits beside it is found from there.
public enum RunningBinary {
    public static var path: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = buffer.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { readlink("/proc/self/exe", $0, b.count - 1) }
        }
        guard n > 0 else { return nil }
        return FileName.string(fromBytes: buffer[0..<n])
    }
}
