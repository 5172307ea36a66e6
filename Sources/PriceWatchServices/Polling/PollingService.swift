import Logging
import PriceWatchCore
import ServiceLifecycle

/// Runs one ``ProviderPoller`` per provider and reloads the configuration on request (SIGHUP).
///
/// A reload parses and validates the whole new configuration first; if it has any error, every
/// diagnostic is logged and the running configuration stays. Otherwise the pollers stop, the
/// evaluator and the sinks switch over, and new pollers start. Providers whose settings did
/// not change are kept (a replay keeps its position).
public final class PollingService<C: Clock<Duration>>: Service {
    /// Everything a running configuration consists of.
    public struct Setup: Sendable {
        public var configuration: Configuration
        public var providers: [String: any QuoteProvider]
        public var sinks: [String: any NotificationSink]

        public init(configuration: Configuration, providers: [String: any QuoteProvider], sinks: [String: any NotificationSink]) {
            self.configuration = configuration
            self.providers = providers
            self.sinks = sinks
        }
    }

    private let initial: Setup
    private let evaluator: RuleEvaluator
    private let sinkRegistry: SinkRegistry
    private let clock: C
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    private let reloadRequests: AsyncStream<Void>
    private let loadSetup: @Sendable (_ previous: Setup) async -> (Setup?, [Diagnostic])
    private let observer: any DaemonObserver

    public init(initial: Setup, evaluator: RuleEvaluator, sinkRegistry: SinkRegistry, clock: C,
                wallClock: @escaping @Sendable () -> Timestamp, logger: Logger, reloadRequests: AsyncStream<Void>,
                observer: any DaemonObserver,
                loadSetup: @escaping @Sendable (_ previous: Setup) async -> (Setup?, [Diagnostic])) {
        self.initial = initial
        self.evaluator = evaluator
        self.sinkRegistry = sinkRegistry
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
        self.reloadRequests = reloadRequests
        self.observer = observer
        self.loadSetup = loadSetup
    }

    public func run() async throws {
        // STOPPING=1 as soon as shutdown begins, before the pollers and the dispatcher drain.
        await withGracefulShutdownHandler {
            await self.runUntilShutdown()
        } onGracefulShutdown: { [observer] in
            observer.stopping()
        }
    }

    private func runUntilShutdown() async {
        await cancelWhenGracefulShutdown {
            var setup = self.initial
            var pollers = self.startPollers(setup)
            self.observer.ready(summary: ConfigurationSummary.line(setup.configuration), pollers: Self.schedule(setup))
            for await _ in self.reloadRequests {
                self.observer.reloading()
                let (next, diagnostics) = await self.loadSetup(setup)
                for diagnostic in diagnostics {
                    let message = "\(diagnostic)"
                    if diagnostic.severity == .error { self.logger.error("\(message)") } else { self.logger.warning("\(message)") }
                }
                guard let next else {
                    let errors = diagnostics.filter { $0.severity == .error }.count
                    self.logger.error("configuration reload rejected with \(errors) error(s); keeping the running configuration",
                                      metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationRejected.metadataValue])
                    self.observer.reloadRejected(reason: "\(errors) error\(errors == 1 ? "" : "s")",
                                                 summary: ConfigurationSummary.line(setup.configuration), pollers: Self.schedule(setup))
                    continue
                }
                pollers.cancel()
                await pollers.value
                var rejection: String?
                do {
                    try await self.evaluator.reconfigure(next.configuration, now: self.wallClock())
                    self.sinkRegistry.replace(with: next.sinks, configuration: next.configuration.sinks)
                    setup = next
                    self.logger.notice("configuration reloaded: \(ConfigurationSummary.line(next.configuration))",
                                       metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationReloaded.metadataValue])
                } catch {
                    self.logger.error("configuration reload failed while loading state: \(error); keeping the running configuration",
                                      metadata: [OperatorEvent.metadataKey: OperatorEvent.configurationRejected.metadataValue])
                    rejection = "the state could not be loaded"
                }
                pollers = self.startPollers(setup)
                if let rejection {
                    self.observer.reloadRejected(reason: rejection, summary: ConfigurationSummary.line(setup.configuration),
                                                 pollers: Self.schedule(setup))
                } else {
                    self.observer.ready(summary: ConfigurationSummary.line(setup.configuration), pollers: Self.schedule(setup))
                }
            }
            pollers.cancel()
            await pollers.value
        }
    }

    /// The providers that poll under `setup` (those with watched symbols), with their intervals.
    static func schedule(_ setup: Setup) -> [String: Duration] {
        var schedule: [String: Duration] = [:]
        for settings in setup.configuration.providers
        where setup.providers[settings.name] != nil && !setup.configuration.symbols(for: settings.name).isEmpty {
            schedule[settings.name] = settings.interval.swiftDuration
        }
        return schedule
    }

    private func startPollers(_ setup: Setup) -> Task<Void, Never> {
        let configuration = setup.configuration
        // One rate limit per provider, shared by its poller and every poller it is a fallback of.
        var limiters: [String: RateLimiter<C>] = [:]
        for settings in configuration.providers {
            guard let provider = setup.providers[settings.name],
                  let perMinute = settings.requestsPerMinute ?? provider.requestsPerMinute else { continue }
            limiters[settings.name] = RateLimiter(requestsPerMinute: perMinute, clock: clock)
        }
        let pollingSettings = PollingSettings(configuration: configuration)
        var pollers: [ProviderPoller<C>] = []
        for settings in configuration.providers {
            let symbols = configuration.symbols(for: settings.name)
            guard !symbols.isEmpty, let provider = setup.providers[settings.name] else { continue }
            var logger = self.logger
            logger[metadataKey: "provider"] = "\(settings.name)"
            let observer = self.observer
            let fallbacks = settings.fallback.compactMap { name in
                setup.providers[name].map { ProviderPoller<C>.Fallback(provider: $0, limiter: limiters[name]) }
            }
            pollers.append(ProviderPoller(provider: provider, symbols: symbols, interval: settings.interval.swiftDuration,
                                          evaluator: evaluator, clock: clock, wallClock: wallClock, logger: logger,
                                          limiter: limiters[settings.name], fallbacks: fallbacks, settings: pollingSettings,
                                          onPoll: { observer.polled(provider: settings.name, at: $0) }))
        }
        return Task {
            await withTaskGroup(of: Void.self) { group in
                for poller in pollers { group.addTask { await poller.run() } }
            }
        }
    }
}
