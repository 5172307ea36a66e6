import Logging
import PriceWatchCore
import ServiceLifecycle
import Synchronization

/// The one reload path: on each request (SIGHUP) it loads and validates the whole new
/// configuration, then hands it to every ``ConfigurationSubscriber`` (the poll schedule, the
/// evaluator, the sink registry; later the calendar scheduler), which each take their part.
///
/// - A configuration with any error is refused before any service sees it: every diagnostic is
///   logged and the running configuration stays.
/// - A subscriber may still refuse it (the evaluator, when the rule state cannot be loaded);
///   the running configuration then stays for every service.
/// - A reload in progress never delays shutdown: the load runs in a task of its own, which is
///   cancelled and no longer waited for when graceful shutdown begins.
/// - It tells the ``DaemonObserver`` (systemd) when a reload starts and how it ended, and that
///   shutdown has begun: it is the last service of the group, so the first to hear of it.
public final class ReloadCoordinator: Service {
    /// Loads and validates a configuration and builds its adapters; `previous` is the running
    /// setup (adapters whose settings did not change are reused). Nil with the diagnostics when
    /// the configuration has errors.
    public typealias Load = @Sendable (_ previous: ServiceSetup) async -> (ServiceSetup?, [Diagnostic])

    /// The setup the daemon started with, until ``run()`` takes it: held past the first reload,
    /// it kept the start's whole configuration alive (32 MB at 100,000 rules).
    private let initial: Mutex<ServiceSetup?>
    private let subscribers: [any ConfigurationSubscriber]
    private let reloadRequests: AsyncStream<Void>
    private let observer: any DaemonObserver
    private let logger: Logger
    private let wallClock: @Sendable () -> Timestamp
    private let load: Load
    /// Counts reloads and records whether the last one succeeded.
    private let metrics: DaemonMetrics

    private let announcesReady: Bool
    /// Set to each configuration every subscriber applied (nil: nobody reads it).
    private let running: RunningConfiguration?

    /// - Parameter subscribers: in the order they pause, apply and resume.
    /// - Parameter running: the one owner of the running configuration; set after every
    ///   subscriber applied a new setup, before they resume.
    /// - Parameter announcesReady: whether ``run()`` reports the initial READY itself; the
    ///   daemon reports it before any service starts instead, so READY never comes after a poll.
    public init(initial: ServiceSetup, subscribers: [any ConfigurationSubscriber], reloadRequests: AsyncStream<Void>,
                observer: any DaemonObserver, logger: Logger, wallClock: @escaping @Sendable () -> Timestamp,
                announcesReady: Bool = true, metrics: DaemonMetrics = .disabled, running: RunningConfiguration? = nil,
                load: @escaping Load) {
        self.announcesReady = announcesReady
        self.running = running
        self.metrics = metrics
        self.initial = Mutex(initial)
        self.subscribers = subscribers
        self.reloadRequests = reloadRequests
        self.observer = observer
        self.logger = logger
        self.wallClock = wallClock
        self.load = load
    }

    public func run() async throws {
        // STOPPING=1 as soon as shutdown begins, before the pollers and the dispatcher drain.
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown {
                await self.serveRequests()
            }
        } onGracefulShutdown: { [observer] in
            observer.stopping()
        }
    }

    private func serveRequests() async {
        guard var running = initial.withLock({ $0.take() }) else { return }
        if announcesReady {
            observer.ready(summary: ConfigurationSummary.line(running.configuration), pollers: running.pollSchedule)
        }
        for await _ in reloadRequests {
            observer.reloading()
            guard let loaded = await loadAbandonably(running) else { return }
            let (next, diagnostics) = loaded
            for diagnostic in diagnostics {
                let message = "\(diagnostic)"
                if diagnostic.severity == .error { logger.error("\(message)") } else { logger.warning("\(message)") }
            }
            guard let next else {
                let errors = diagnostics.filter { $0.severity == .error }.count
                logger.error("configuration reload rejected with \(errors) error(s); keeping the running configuration",
                             metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationRejected.metadataValue])
                metrics.reloaded(nil, at: wallClock())
                observer.reloadRejected(reason: "\(errors) error\(errors == 1 ? "" : "s")",
                                        summary: ConfigurationSummary.line(running.configuration), pollers: running.pollSchedule)
                continue
            }
            if let rejection = await switchOver(from: running, to: next) {
                metrics.reloaded(nil, at: wallClock())
                observer.reloadRejected(reason: rejection, summary: ConfigurationSummary.line(running.configuration),
                                        pollers: running.pollSchedule)
            } else {
                running = next
                metrics.reloaded(next.configuration, at: wallClock())
                observer.ready(summary: ConfigurationSummary.line(running.configuration), pollers: running.pollSchedule)
            }
        }
        // No more requests (the signal stream ended): stay until shutdown.
        try? await gracefulShutdown()
    }

    /// The new configuration's load, in a task of its own; nil when shutdown began meanwhile.
    private func loadAbandonably(_ running: ServiceSetup) async -> (ServiceSetup?, [Diagnostic])? {
        let load = self.load
        let loading = Task.detached { await load(running) }
        return await AbandonableWait.value(of: loading)
    }

    /// Hands `next` to every subscriber; nil when it runs, else why it was refused (the
    /// subscribers then run `running` again).
    private func switchOver(from running: ServiceSetup, to next: ServiceSetup) async -> String? {
        for subscriber in subscribers { await subscriber.pause() }
        var rejection: String?
        let now = wallClock()
        for (index, subscriber) in subscribers.enumerated() {
            do {
                try await subscriber.apply(next, now: now)
            } catch {
                logger.error("configuration reload failed while loading state: \(error); keeping the running configuration",
                             metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationRejected.metadataValue])
                rejection = "the state could not be loaded"
                for earlier in subscribers[..<index] {
                    do {
                        try await earlier.apply(running, now: now)
                    } catch {
                        logger.error("could not return to the running configuration: \(error)")
                    }
                }
                break
            }
        }
        if rejection == nil {
            self.running?.set(next.configuration)
            logger.notice("configuration reloaded: \(ConfigurationSummary.line(next.configuration))",
                          metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationReloaded.metadataValue])
        }
        let current = rejection == nil ? next : running
        for subscriber in subscribers { await subscriber.resume(with: current) }
        return rejection
    }
}
