import PriceWatchCore

/// A ``DaemonObserver`` that records polls and readiness in ``DaemonLiveness`` and passes
/// every event on to the observer it wraps.
public struct LivenessObserver: DaemonObserver {
    let wrapped: any DaemonObserver
    let liveness: DaemonLiveness
    let wallClock: @Sendable () -> Timestamp

    public init(wrapping wrapped: any DaemonObserver, liveness: DaemonLiveness, wallClock: @escaping @Sendable () -> Timestamp) {
        self.wrapped = wrapped
        self.liveness = liveness
        self.wallClock = wallClock
    }

    public func ready(summary: String, pollers: [String: Duration]) {
        liveness.ready(pollers: pollers, at: wallClock())
        wrapped.ready(summary: summary, pollers: pollers)
    }
    public func reloading() { wrapped.reloading() }
    public func reloadRejected(reason: String, summary: String, pollers: [String: Duration]) {
        wrapped.reloadRejected(reason: reason, summary: summary, pollers: pollers)
    }
    public func polled(provider: String, at time: Timestamp) {
        liveness.polled(provider: provider, at: time)
        wrapped.polled(provider: provider, at: time)
    }
    public func stopping() { wrapped.stopping() }
    public func run() async { await wrapped.run() }
}
