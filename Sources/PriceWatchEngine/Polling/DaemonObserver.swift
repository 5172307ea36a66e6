import PriceWatchCore

/// Lifecycle events of the daemon, for the service manager (systemd's `sd_notify`: READY,
/// RELOADING, STOPPING, STATUS, WATCHDOG) or tests.
///
/// Called from the daemon's tasks; implementations must be quick and must not block.
public protocol DaemonObserver: Sendable {
    /// The configuration is loaded, the store is open and polling runs.
    func ready(summary: String)
    /// A reload has started.
    func reloading()
    /// A provider finished a poll at the given wall-clock time (the scheduler is alive).
    func polled(provider: String, at time: Timestamp)
    /// Graceful shutdown has begun.
    func stopping()
}

/// An observer that ignores every event.
public struct SilentDaemonObserver: DaemonObserver {
    public init() {}
    public func ready(summary: String) {}
    public func reloading() {}
    public func polled(provider: String, at time: Timestamp) {}
    public func stopping() {}
}
