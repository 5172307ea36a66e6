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

    /// Limits the arenas before the daemon starts its threads.
    static func limit(environment: [String: String]) {
        guard environment["MALLOC_ARENA_MAX"] == nil else { return }
        _ = mallopt(M_ARENA_MAX, daemonLimit)
    }
}
