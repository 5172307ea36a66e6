import Logging
import PriceWatchCore
import Synchronization

/// The daemon's life as systemd sees it, through a ``ServiceNotifier``:
///
/// - `READY=1` with a `STATUS=` summary once the configuration is loaded and the store is
///   open, and again after every reload (also a rejected one, whose status says so);
/// - `RELOADING=1` with `MONOTONIC_USEC=` when a reload starts, `STOPPING=1` at shutdown;
/// - `STATUS=` after polls, at most once per `statusInterval`: the configuration summary,
///   the last poll and the pending deliveries;
/// - `WATCHDOG=1` every half `WatchdogSec=` while every poller keeps finishing polls
///   (``WatchdogMonitor``, ``WatchdogPinger``).
///
/// The event methods only record and enqueue; the periodic work runs in ``run()``. The
/// engine makes this type its `DaemonObserver`.
public final class SystemdObserver: Sendable {
    private struct Status {
        var summary = "starting"
        /// Shown before the summary until the next successful (re)load: a rejected reload, a
        /// stalled scheduler.
        var note: String?
        var lastPoll: (provider: String, time: Timestamp)?
    }

    private let notifier: ServiceNotifier
    private let watchdogPeriod: Duration?
    private let statusInterval: Duration
    private let logger: Logger
    private let pendingDeliveries: @Sendable () async -> Int?
    private let monitor = WatchdogMonitor(clock: ContinuousClock())
    private let status = Mutex(Status())
    private let polls: AsyncStream<Void>
    private let pollSignal: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - watchdogPeriod: how often to ping (half of `WATCHDOG_USEC`); `nil`: no watchdog.
    ///   - statusInterval: the least time between two status updates after polls.
    ///   - pendingDeliveries: counts the outbox's pending deliveries for the status line.
    public init(notifier: ServiceNotifier, watchdogPeriod: Duration?, statusInterval: Duration = .seconds(10),
                logger: Logger, pendingDeliveries: @escaping @Sendable () async -> Int?) {
        self.notifier = notifier
        self.watchdogPeriod = watchdogPeriod
        self.statusInterval = statusInterval
        self.logger = logger
        self.pendingDeliveries = pendingDeliveries
        (polls, pollSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The configuration is loaded, the store is open and polling runs (at start and after a
    /// successful reload). `pollers`: each polling provider with its interval.
    public func ready(summary: String, pollers: [String: Duration]) {
        monitor.expect(pollers: pollers)
        let line = status.withLock { status in
            status.summary = summary
            status.note = nil
            return Self.line(status, pending: nil)
        }
        notifier.ready(status: line)
    }

    /// A reload has started.
    public func reloading() {
        notifier.reloading(status: "reloading the configuration")
    }

    /// A reload was refused; the running configuration (`summary`, `pollers`) stays.
    public func reloadRejected(reason: String, summary: String, pollers: [String: Duration]) {
        monitor.expect(pollers: pollers)
        let line = status.withLock { status in
            status.summary = summary
            status.note = "configuration reload rejected (\(reason)); running the previous one"
            return Self.line(status, pending: nil)
        }
        notifier.ready(status: line)
    }

    /// A provider finished a poll at `time` (wall clock).
    public func polled(provider: String, at time: Timestamp) {
        monitor.progressed(provider)
        status.withLock { $0.lastPoll = (provider, time) }
        pollSignal.yield()
    }

    /// Graceful shutdown has begun.
    public func stopping() {
        notifier.stopping(status: "stopping")
    }

    /// Runs the watchdog pings and the status updates until the task is cancelled.
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
            group.addTask { await self.publishStatusAfterPolls() }
        }
    }

    /// Sends the status line after polls, at most once per `statusInterval`.
    private func publishStatusAfterPolls() async {
        let clock = ContinuousClock()
        var lastSent: ContinuousClock.Instant?
        for await _ in polls {
            if let lastSent {
                do {
                    try await clock.sleep(until: lastSent.advanced(by: statusInterval), tolerance: nil)
                } catch {
                    return
                }
            }
            let pending = await pendingDeliveries()
            notifier.status(status.withLock { Self.line($0, pending: pending) })
            lastSent = clock.now
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
        let line = status.withLock { status in
            status.note = "stalled: provider \(names) has not finished a poll in time; watchdog pings withheld"
            return Self.line(status, pending: nil)
        }
        notifier.status(line)
    }

    private func recovered() {
        logger.notice("every provider is polling again; watchdog pings resumed")
        let line = status.withLock { status in
            status.note = nil
            return Self.line(status, pending: nil)
        }
        notifier.status(line)
    }

    /// `4 rules on 2 symbols, 1 provider, 1 sink; last poll 2024-10-02T13:30:00Z (demo); 0 pending deliveries`
    private static func line(_ status: Status, pending: Int?) -> String {
        var parts = [status.summary]
        if let note = status.note { parts.insert(note, at: 0) }
        if let lastPoll = status.lastPoll {
            parts.append("last poll \(Timestamp(seconds: lastPoll.time.seconds).rfc3339) (\(lastPoll.provider))")
        }
        if let pending { parts.append("\(pending) pending deliver\(pending == 1 ? "y" : "ies")") }
        return parts.joined(separator: "; ")
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds)s"
    }
}
