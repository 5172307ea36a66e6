import CGlibcMalloc

/// How many malloc arenas the daemon's threads share.
///
/// glibc gives threads up to eight arenas per core and keeps what each frees for its own
/// reuse; a daemon that polls on a few threads and reloads on every core ends up with its free
/// memory scattered over many arenas that `malloc_trim` cannot fully return. Two arenas kept
/// 100,000 rules on 10,000 symbols under 100 MB resident after polls and reloads (about 103 to
/// 108 MB with glibc's default; docs/benchmarks.md, "The daemon as run"), at the same CPU per
/// poll. `MALLOC_ARENA_MAX` in the environment, when set, is left to decide.
enum MallocArenas {
    static let daemonLimit: Int32 = 2

    /// Large blocks (a rule list, a poll's quotes) at or above this size are mapped on their
    /// own and returned whole when freed. glibc otherwise raises its threshold each time such
    /// a block is freed (up to 32 MB), and the next configuration's large arrays land inside
    /// the heap among the old one's, where freeing them leaves holes it cannot give back.
    static let mmapThreshold: Int32 = 2 * 1024 * 1024

    /// Limits the arenas, and fixes the mapping threshold, before the daemon starts its threads.
    static func limit(environment: [String: String]) {
        if environment["MALLOC_ARENA_MAX"] == nil { _ = mallopt(M_ARENA_MAX, daemonLimit) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold) }
    }
}
