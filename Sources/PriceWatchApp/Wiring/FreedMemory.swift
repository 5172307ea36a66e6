import CGlibcMalloc

/// Hands memory the process has freed back to the system.
///
/// Loading a large configuration allocates far more than it keeps (parse trees, rule drafts,
/// diagnostics' positions: about 136 MB at its peak for 100,000 rules, of which the rules kept
/// are a fraction). glibc keeps freed pages in its arenas for reuse, so without this the daemon
/// would carry the load's peak as resident memory for its whole life.
enum FreedMemory {
    /// Returns the free pages of every malloc arena (`malloc_trim(0)`); takes milliseconds.
    static func release() {
        _ = malloc_trim(0)
    }
}
