import PriceWatchCore
import PriceWatchServices

/// A ``DaemonObserver`` that hands freed memory back to the system (``FreedMemory``) after
/// every poll and every switch to a new configuration, and passes every event on to the
/// observer it wraps.
///
/// A poll allocates far more than it keeps (each answer's bytes and decoded quotes, the
/// statements' rows), on several threads, and glibc keeps what they free in each thread's
/// arena: without this the daemon carries the largest poll's and reload's peak for its
/// whole life (docs/benchmarks.md, "The daemon as run").
struct MemoryReturningObserver: DaemonObserver {
    let wrapped: any DaemonObserver

    init(wrapping wrapped: any DaemonObserver) {
        self.wrapped = wrapped
    }

    func ready(summary: String, pollers: [String: Duration]) {
        wrapped.ready(summary: summary, pollers: pollers)
        FreedMemory.release()
    }
    func reloading() { wrapped.reloading() }
    func reloadRejected(reason: String, summary: String, pollers: [String: Duration]) {
        wrapped.reloadRejected(reason: reason, summary: summary, pollers: pollers)
        FreedMemory.release()
    }
    func polled(provider: String, at time: Timestamp) {
        wrapped.polled(provider: provider, at: time)
        FreedMemory.release()
        // After the first poll, what start-up touched and the poll does not is read-only
        // pages the running daemon never needs again.
        StartUpPages.releaseOnce()
    }
    func stopping() { wrapped.stopping() }
    func run() async { await wrapped.run() }
}
