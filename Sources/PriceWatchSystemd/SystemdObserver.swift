import Logging
import PriceWatchCore

/// The daemon's life as systemd sees it, through a ``ServiceNotifier``:
///
/// - `READY=1` with a `STATUS=` summary once the configuration is loaded and the store is
///   open, and again after every reload (also a rejected one, whose status says so);
/// - `RELOADING=1` with `MONOTONIC_USEC=` when a reload starts, `STOPPING=1` at shutdown;
/// - `STATUS=` after polls, at most once per `statusInterval` (``ServiceStatus``): the
///   configuration summary, the last poll and the pending deliveries;
/// - `WATCHDOG=1` every half `WatchdogSec=` while every poller keeps finishing polls
///   (``WatchdogMonitor``, ``WatchdogPinger``).
///
/// The event methods only record and enqueue; the periodic work runs in ``run()``. The
/// engine makes this type its `DaemonObserver`.
public final class SystemdObserver: Sendable {
    private let notifier: ServiceNotifier
    private let watchdogPeriod: Duration?
    private let logger: Logger
    private let monitor = WatchdogMonitor(clock: ContinuousClock())
    private let status: ServiceStatus<ContinuousClock>

    /// - Parameters:
    ///   - watchdogPeriod: how often to ping (half of `WATCHDOG_USEC`); `nil`: no watchdog.
    ///   - statusInterval: the least time between two status updates after polls.
    ///   - pendingDeliveries: counts the outbox's pending deliveries for the status line.
    public init(notifier: ServiceNotifier, watchdogPeriod: Duration?, statusInterval: Duration = .seconds(10),
                logger: Logger, pendingDeliveries: @escaping @Sendable () async -> Int?) {
        self.notifier = notifier
        self.watchdogPeriod = watchdogPeriod
        self.logger = logger
        status = ServiceStatus(clock: ContinuousClock(), minimumInterval: statusInterval,
                               pendingDeliveries: pendingDeliveries, publish: { [notifier] in notifier.status($0) })
    }

    /// The configuration is loaded, the store is open and polling runs (at start and after a
    /// successful reload). `pollers`: each polling provider with its interval.
    public func ready(summary: String, pollers: [String: Duration]) {
        monitor.expect(pollers: pollers)
        notifier.ready(status: status.running(summary))
    }

    /// A reload has started.
    public func reloading() {
        notifier.reloading(status: "reloading the configuration")
    }

    /// A reload was refused; the running configuration (`summary`, `pollers`) stays.
    public func reloadRejected(reason: String, summary: String, pollers: [String: Duration]) {
        monitor.expect(pollers: pollers)
        _ = status.running(summary)
        notifier.ready(status: status.note("configuration reload rejected (\(reason)); running the previous one"))
    }

    /// A provider finished a poll at `time` (wall clock).
    public func polled(provider: String, at time: Timestamp) {
        monitor.progressed(provider)
        status.polled(provider: provider, at: time)
    }

    /// Graceful shutdown has begun.
    public func stopping() {
        notifier.stopping(status: "stopping")
    }

    /// Runs the watchdog pings and the status updates until the task is cancelled. Call once.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            if let watchdogPeriod {
                let pinger = WatchdogPinger(
                    monitor: monitor, clock: ContinuousClock(), period: watchdogPeriod,
                    ping: { [notifier] in notifier.watchdog() },
                    stalled: { [weak self] stalls in self?.stalled(stalls) },
                    recovered: { [weak self] in self?.recovered() })
                group.addTask { await pinger.run() }
            }
            group.addTask { await self.status.run() }
        }
    }

    private func stalled(_ stalls: [WatchdogMonitor<ContinuousClock>.Stall]) {
        for stall in stalls {
            logger.critical(
                "provider '\(stall.poller)' has not finished a poll for \(Self.seconds(stall.silentFor)) (expected within \(Self.seconds(stall.window))); withholding watchdog pings, so systemd restarts pricewatch",
                metadata: [OperatorEvent.metadataKey: OperatorEvent.schedulerStalled.metadataValue,
                           "provider": "\(stall.poller)"])
        }
        let names = stalls.map { "'\($0.poller)'" }.joined(separator: ", ")
        notifier.status(status.note("stalled: provider \(names) has not finished a poll in time; watchdog pings withheld"))
    }

    private func recovered() {
        logger.notice("every provider is polling again; watchdog pings resumed")
        notifier.status(status.note(nil))
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds)s"
    }
}
