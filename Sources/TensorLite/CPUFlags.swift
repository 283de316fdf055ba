import Foundation

/// The instruction-set flags of the CPU this runs on, as Linux lists them in /proc/cpuinfo
/// (`avx2`, `avx512f`, ...). The kernel's list rather than CPUID's: it also leaves out what the
/// kernel does not let programs use (AVX-512 state it does not save, a `clearcpuid=`).
public enum CPUFlags {
    /// Nil when /proc/cpuinfo cannot be read or has no flags line (a container without /proc):
    /// then nothing is known, and nothing is refused for it.
    public static func current(_ path: String = "/proc/cpuinfo") -> Set<String>? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // Only the first CPU's line is needed, and a machine of 128 cores lists it 128 times.
        var text = ""
        while let chunk = try? handle.read(upToCount: 16 << 10), !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            if let flags = parse(text) { return flags }
        }
        return parse(text + "\n")
    }

    /// The first complete `flags : ...` line's words, or nil when there is none yet.
    static func parse(_ text: String) -> Set<String>? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() where line.hasPrefix("flags") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
        }
        return nil
    }
}
