/// Hands memory freed by a finished job back to the system. glibc keeps freed blocks in each
/// thread's heap for reuse; after a 4K decoder's pictures (25 MB each) are freed, the next
/// decoder's threads allocate afresh, and the resident size grows pass by pass without this.
public enum FreedMemory {
    public static func giveBack() {
        #if os(Linux)
        _ = glibcMallocTrim(0)
        #endif
    }

    /// Blocks of 4 MB and more (frames, pictures, model buffers) are mapped for themselves and
    /// unmapped when freed. glibc's default raises that threshold to the largest block freed so
    /// far (up to 32 MB), after which a 4K frame's 25 MB stay in the heap of the thread that
    /// freed them, and the process's resident size grows by every such frame.
    ///
    /// And two heaps for all threads, not one per thread (up to 8 a core): decoders, prefetchers
    /// and the models' workers come and go, each new thread took a heap of its own, and what
    /// the last analysis pass freed sat in heaps the render's threads never used, so a 4K film's
    /// peak varied by tens of MB from run to run.
    /// Allocations here are few and large, so threads seldom wait on a heap's lock.
    ///
    /// And up to 64 MB free at the top of a heap before it is given back on its own: judging a
    /// library allocates and frees millions of small blocks a second, and at glibc's default
    /// (128 KB) each heap shrank and grew again all the time, a system call and fresh pages each
    /// time (a sixth of the CPU of judging a decade). `giveBack` still returns everything
    /// after a large job.
    /// Once per process, before any thread starts.
    public static func setUpAllocator() {
        #if os(Linux)
        let trimThreshold: Int32 = -1  // glibc's M_TRIM_THRESHOLD
        let mmapThreshold: Int32 = -3  // glibc's M_MMAP_THRESHOLD
        let arenaMax: Int32 = -8  // glibc's M_ARENA_MAX
        _ = glibcMallopt(trimThreshold, 64 << 20)
        _ = glibcMallopt(mmapThreshold, 4 << 20)
        _ = glibcMallopt(arenaMax, 2)
        #endif
    }
}

#if os(Linux)
// <malloc.h> is not in Swift's Glibc module; the symbol is glibc's own.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32

@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
