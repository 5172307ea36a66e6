import PriceWatchCore

/// Lifecycle events of the daemon, for the service manager (systemd's `sd_notify`: READY,
/// RELOADING, STOPPING, STATUS, WATCHDOG) or tests.
///
/// The event methods are called from the daemon's tasks, polls included: they must be quick
/// and must not block (record, enqueue, return). Periodic work of the observer's own
/// (watchdog pings, status updates) belongs in ``run()``, which the daemon runs beside its
/// services and cancels at shutdown.
public protocol DaemonObserver: Sendable {
    /// The configuration is loaded, the store is open and polling runs: at start, and after
    /// each successful reload. `pollers`: each polling provider's name and interval.
    func ready(summary: String, pollers: [String: Duration])
    /// A reload (SIGHUP) has started.
    func reloading()
    /// A reload was refused (`reason`: why, in a few words); the running configuration,
    /// `summary` with `pollers`, stays and runs again.
    func reloadRejected(reason: String, summary: String, pollers: [String: Duration])
    /// A provider finished a poll at the given wall-clock time (the scheduler is alive).
    func polled(provider: String, at time: Timestamp)
    /// Graceful shutdown has begun.
    func stopping()
    /// The observer's periodic work, until the task is cancelled. Called once.
    func run() async
}

/// An observer that ignores every event.
public struct SilentDaemonObserver: DaemonObserver {
    public init() {}
    public func ready(summary: String, pollers: [String: Duration]) {}
    public func reloading() {}
    public func reloadRejected(reason: String, summary: String, pollers: [String: Duration]) {}
    public func polled(provider: String, at time: Timestamp) {}
    public func stopping() {}
    public func run() async {}
}
