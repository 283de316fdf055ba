/// Hands memory freed by a finished job back to the system. glibc keeps freed blocks in each
/// thread's heap for reuse; after a 4K decoder's pictures (25 MB each) are freed, the next
/// decoder's threads allocate afresh, and the resident size grows pass by pass without this.
public enum FreedMemory {
    public static func giveBack() {
        #if os(Linux)
        _ = glibcMallocTrim(0)
        #endif
    }
}

#if os(Linux)
// <malloc.h> is not in Swift's Glibc module; the symbol is glibc's own.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
