import CGlibcMalloc

/// Hands memory the process has freed back to the system.
///
/// Loading a large configuration allocates far more than it keeps (each file's parse tree and
/// rule drafts), on one thread per core, and glibc keeps freed pages in each thread's arena for
/// reuse: without this the daemon would carry the load's peak as resident memory for its whole
/// life. The daemon calls it after every load; the configuration benchmark does the same.
public enum FreedMemory {
    /// Returns the free pages of every malloc arena (`malloc_trim(0)`); takes milliseconds.
    public static func release() {
        _ = malloc_trim(0)
    }
}
